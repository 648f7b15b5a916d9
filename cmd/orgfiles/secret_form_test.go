package orgfiles_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/orgctl/orgctl/client/orgcode"
	"github.com/orgctl/orgctl/cmd/manual"
)

// The one spelling of a secret in the files: what export writes is
// SecretForm filled in, and the manual's prose spells it as help does.
func TestFirstdaySecretFormOneOwner(t *testing.T) {
	got := orgcode.SecretRef("stripe-key", "production")
	if got != "${ORGCTL_SECRET_STRIPE_KEY_PRODUCTION}" {
		t.Errorf("SecretRef = %q", got)
	}
	form := regexp.QuoteMeta(orgcode.SecretForm)
	form = strings.NewReplacer("<NAME>", "[A-Z0-9_]+", "<ENVIRONMENT>", "[A-Z0-9_]+").Replace(form)
	if !regexp.MustCompile(`^` + form + `$`).MatchString(got) {
		t.Errorf("export writes %q, not of the form %s", got, orgcode.SecretForm)
	}
	if !strings.Contains(manual.Text("org-as-code"), orgcode.SecretForm) {
		t.Errorf("help org-as-code does not spell a secret as %s", orgcode.SecretForm)
	}
}
