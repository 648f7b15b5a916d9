package cmd

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/orgctl/orgctl/cmd/manual"
)

// `orgctl help TOPIC` prints the manual of each job: the topic's page as
// cmd/manual holds it, headings and examples included, and `orgctl help`
// lists it.
func TestHelpTopicsPrintTheManualForEachJob(t *testing.T) {
	list, _, err := run(t, "", "help")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`(?m)^[0-9. ]*[A-Z][A-Z ,()-]+$`)
	for _, topic := range []string{"bulk", "org-as-code", "access-reviews", "spaces", "budget", "resource-changes"} {
		page := manual.Text(topic)
		if len(page) < 1500 || !strings.Contains(page, "\n  $ orgctl ") {
			t.Errorf("help %s: the manual's page is %d bytes with no `$ orgctl` example: is it written?", topic, len(page))
		}
		out, _, err := run(t, "", "help", topic)
		if err != nil {
			t.Fatalf("help %s: %v", topic, err)
		}
		first, _, _ := strings.Cut(page, "\n\n")
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(first), " ")) {
			t.Errorf("help %s does not start with the manual's first paragraph:\n%.300s", topic, out)
		}
		for _, h := range heading.FindAllString(page, -1) {
			if !strings.Contains(out, h) {
				t.Errorf("help %s lacks the heading %q", topic, h)
			}
		}
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(topic) + ` +\S`).MatchString(list) {
			t.Errorf("orgctl help does not list the topic %s:\n%s", topic, list)
		}
	}
	// a topic that shares its name with a command says where the command's help is
	out, _, err := run(t, "", "help", "spaces")
	if err != nil || !strings.Contains(out, "orgctl spaces --help") {
		t.Errorf("help spaces does not name the spaces command's help (%v):\n%s", err, out)
	}
}

// A command's --help ends by naming the topics of its job, and every topic
// it names exists.
func TestHelpPointsAtTheManual(t *testing.T) {
	for line, want := range map[string]string{
		"users create":       "See `orgctl help bulk`.",
		"groups members add": "See `orgctl help bulk`.",
		"plan":               "See `orgctl help org-as-code`.",
		"apply":              "See `orgctl help org-as-code`.",
		"permissions report": "See `orgctl help access-reviews` and `orgctl help spaces`.",
		"budget status":      "See `orgctl help budget`.",
		"resources audit":    "See `orgctl help resource-changes`.",
	} {
		out, _, err := run(t, "", append(strings.Fields(line), "--help")...)
		if err != nil {
			t.Fatalf("%s --help: %v", line, err)
		}
		if !strings.HasSuffix(strings.TrimSpace(out), want) {
			t.Errorf("%s --help does not end with %q:\n...%s", line, want, out[max(0, len(out)-300):])
		}
	}
	root, _ := hintTree()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, topic := range topicsOf(c) {
			if !isHelpTopic(topic) {
				t.Errorf("%s points at `orgctl help %s`, which is no topic", c.CommandPath(), topic)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
