package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/orgctl/orgctl/cmd/settings"
	"github.com/orgctl/orgctl/output"
	"github.com/orgctl/orgctl/ratebudget"
	"github.com/orgctl/orgctl/ratebudget/redisstore"
)

// budgetStore is where the budget ledger lives, from budget.store
// (ORGCTL_BUDGET_STORE) and budget.store_fallback.
type budgetStore struct {
	url      string // a Redis URL; "" for this machine's file ledger
	fallback bool   // on the file ledger while the store fails
}

func readBudgetStore(cfg *settings.Config) (budgetStore, error) {
	var bs budgetStore
	raw := strings.TrimSpace(cfg.BudgetStore)
	switch {
	case raw == "" || raw == "file":
	case strings.HasPrefix(raw, "redis://") || strings.HasPrefix(raw, "rediss://"):
		bs.url = raw
	default:
		shown := fmt.Sprintf("%q", raw)
		if strings.Contains(raw, "@") {
			shown = "(value not shown: it may hold a password)"
		}
		return bs, UsageErrorf("budget.store %s: want file (the default) or a Redis URL, redis://[user:password@]host:port/db or rediss:// for TLS", shown)
	}
	switch fb := strings.TrimSpace(cfg.BudgetStoreFallback); fb {
	case "", "none":
	case "file":
		bs.fallback = true
	default:
		return bs, UsageErrorf("budget.store_fallback %q: want file (use this machine's ledger while the store is down) or none (fail; the default)", fb)
	}
	return bs, nil
}

// redisStores holds one connection pool per store URL for the process.
var redisStores sync.Map // url -> *redisstore.Store

func redisStore(url string) (*redisstore.Store, error) {
	if st, ok := redisStores.Load(url); ok {
		return st.(*redisstore.Store), nil
	}
	st, err := redisstore.Open(url, nil)
	if err != nil {
		return nil, err
	}
	if prev, loaded := redisStores.LoadOrStore(url, st); loaded {
		st.Close()
		return prev.(*redisstore.Store), nil
	}
	return st, nil
}

// OpenLedger opens the budget ledger of a target's host and token, in the
// store budget.store names, announcing waits and a fallback on io.
func OpenLedger(cfg *settings.Config, t *Target, io *output.IO) (*ratebudget.Ledger, error) {
	return OpenLedgerWith(cfg, t, cfg.Budget, io, ratebudget.WithNotify(WaitAnnouncer(io)))
}

// OpenLedgerWith opens the ledger with bc in the store budget.store names,
// falling back to the file ledger if budget.store_fallback says so (and
// warning on io, once per ledger).
func OpenLedgerWith(cfg *settings.Config, t *Target, bc ratebudget.Config, io *output.IO, opts ...ratebudget.Option) (*ratebudget.Ledger, error) {
	bs, err := readBudgetStore(cfg)
	if err != nil {
		return nil, err
	}
	key := ratebudget.Key(hostOf(t.BaseURL), t.Token)
	dir := filepath.Join(settings.StateDir(), "budget")
	if bs.url == "" {
		l, err := ratebudget.Open(dir, key, bc, opts...)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		return l, nil
	}
	st, err := redisStore(bs.url)
	if err != nil {
		return nil, UsageErrorf("budget.store: %v", err)
	}
	if bs.fallback {
		local, err := ratebudget.Open(dir, key, bc, opts...)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		warn := func(err error) {
			io.Warn("%v; using this machine's own ledger (budget.store_fallback: file) until the store answers again", err)
		}
		opts = append(opts, ratebudget.WithFallback(local, warn))
	}
	l, err := ratebudget.OpenStore(st, key, bc, opts...)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return l, nil
}

// budgetStoreError is a shared budget store that failed, with what to do.
type budgetStoreError struct{ err error }

func (e *budgetStoreError) Error() string {
	return e.err.Error() + "; orgctl shares the rate budget through this store and sends no request it cannot account for: " +
		"start the store or fix budget.store (ORGCTL_BUDGET_STORE), or set budget.store_fallback: file " +
		"(ORGCTL_BUDGET_STORE_FALLBACK=file) to use this machine's own ledger while it is down"
}

func (e *budgetStoreError) Unwrap() error { return e.err }

// ExplainStoreError adds what to do to a shared store's failure.
func ExplainStoreError(err error) error {
	var se *ratebudget.StoreError
	var explained *budgetStoreError
	if errors.As(err, &se) && !errors.As(err, &explained) {
		return &budgetStoreError{err}
	}
	return err
}
