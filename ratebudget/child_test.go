package ratebudget

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/orgctl/orgctl/ratebudget/redisstore"
)

// charge is one request as the ledger dated it: reserved at R, charged at C.
type charge struct {
	R, C   int64
	Points int
}

// auditWindows checks the guarantee the server needs: whenever the server
// counted each request (some instant between its reservation and its
// charge), no window ever held more than capacity. The fullest window ends
// at some request's reservation, so checking those instants suffices.
func auditWindows(t *testing.T, charges []charge, window time.Duration, capacity int) (peak int) {
	t.Helper()
	w := int64(window)
	for _, j := range charges {
		sum := 0
		for _, i := range charges {
			if i.R <= j.R && i.C > j.R-w {
				sum += i.Points
			}
		}
		if sum > capacity {
			t.Errorf("window ending %v holds %d points, budget %d", time.Unix(0, j.R).Format("15:04:05.000000"), sum, capacity)
			return sum
		}
		peak = max(peak, sum)
	}
	return peak
}

func TestConcurrentLedgersNeverOverdraw(t *testing.T) {
	eachStore(t, testConcurrentLedgersNeverOverdraw)
}

func testConcurrentLedgersNeverOverdraw(t *testing.T, k *storeKind) {
	const goroutines = 16
	each := 12
	if k.store != nil {
		each = 6 // every update is two round trips
	}
	if raceDetector {
		each /= 2
	}
	clk := newVirtualClock(goroutines)
	dir := k.place(t)
	cfg := DefaultConfig()
	cfg.Points, cfg.Reserve = 32, 2 // default MaxWait of 10m: FIFO service must keep 10-point requests from starving
	var (
		mu      sync.Mutex
		charges []charge
	)
	record := func(r, c time.Time, p int) {
		mu.Lock()
		defer mu.Unlock()
		charges = append(charges, charge{r.UnixNano(), c.UnixNano(), p})
	}
	ledgers := []*Ledger{k.open(t, dir, cfg, clk), k.open(t, dir, cfg, clk)}
	for _, l := range ledgers {
		l.charged = record
	}
	paths := []string{"/apps", "/groups", "/permissions/grant", "/users/u_1"}
	var wg sync.WaitGroup
	var refunds, sent int
	for g := range goroutines {
		wg.Go(func() {
			defer clk.Exit()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			l := ledgers[g%2]
			for range each {
				tk, err := l.Acquire(context.Background(), paths[rng.IntN(len(paths))])
				if err != nil {
					t.Errorf("goroutine %d at t0+%v: %v", g, clk.Now().Sub(t0), err)
					return
				}
				_ = clk.Sleep(context.Background(), time.Duration(rng.IntN(3000))*time.Millisecond) // in flight
				reached := rng.IntN(8) != 0
				tk.Done(reached)
				mu.Lock()
				if reached {
					sent++
				} else {
					refunds++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(charges) != sent || sent+refunds != goroutines*each {
		t.Fatalf("%d charges recorded for %d sent requests (%d refunded)", len(charges), sent, refunds)
	}
	peak := auditWindows(t, charges, cfg.Window, 30)
	t.Logf("%d requests, %d refunded, peak window %d/30 points, fake time %v", sent+refunds, refunds, peak, clk.Now().Sub(t0))
	if clk.Now().Sub(t0) < cfg.Window {
		t.Errorf("every request went within one window (%v): the budget never made one wait, so the test proved nothing", clk.Now().Sub(t0))
	}
	s, _, err := ledgers[0].store.view()
	if err != nil {
		t.Fatal(err)
	}
	now := clk.Now().UnixNano()
	inWindow := 0
	for _, e := range s.Entries {
		if e.Pending {
			t.Errorf("entry still pending after every ticket is done: %+v", e)
		}
		if e.At > now-int64(cfg.Window) {
			inWindow += e.Points
		}
	}
	if inWindow > 30 {
		t.Errorf("final file holds %d points in the last window", inWindow)
	}
}

// TestManyProcessesShareOneBudget runs the test binary as several processes
// acquiring on one ledger with a short real window.
func TestManyProcessesShareOneBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test takes about 5s per store")
	}
	eachStore(t, testManyProcessesShareOneBudget)
}

func testManyProcessesShareOneBudget(t *testing.T, k *storeKind) {
	const procs = 4
	place := k.place(t)
	start := time.Now()
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(childEnviron(k), childEnv+"=acquire", "RATEBUDGET_TEST_PLACE="+place, fmt.Sprintf("RATEBUDGET_TEST_SEED=%d", i))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			outs[i], errs[i] = cmd.Output()
			if errs[i] != nil {
				errs[i] = fmt.Errorf("child %d: %v: %s", i, errs[i], stderr.Bytes())
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	var charges []charge
	for i := range procs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		sc := bufio.NewScanner(bytes.NewReader(outs[i]))
		for sc.Scan() {
			var c charge
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("child %d output %q: %v", i, sc.Bytes(), err)
			}
			charges = append(charges, c)
		}
	}
	if want := procs * childRequests * (childRefundEvery - 1) / childRefundEvery; len(charges) != want {
		t.Fatalf("%d charges from children, want %d", len(charges), want)
	}
	peak := auditWindows(t, charges, childWindow, childPoints)
	points := 2 * len(charges)
	t.Logf("%d processes, %d charged points, peak window %d/%d, %v elapsed (ideal ≥ %v)",
		procs, points, peak, childPoints, elapsed.Round(time.Millisecond),
		time.Duration(points/childPoints)*childWindow)
}

const (
	childPoints      = 40
	childWindow      = time.Second
	childRequests    = 30
	childRefundEvery = 10
)

// runChild acquires childRequests Apps requests on the shared ledger, keeps
// each in flight briefly, refunds every tenth and prints each charge.
func runChild() int {
	cfg := DefaultConfig()
	cfg.Points, cfg.Window, cfg.MaxWait = childPoints, childWindow, time.Minute
	l, err := openChildLedger(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	l.charged = func(r, c time.Time, p int) { _ = enc.Encode(charge{r.UnixNano(), c.UnixNano(), p}) }
	var seed uint64
	fmt.Sscan(os.Getenv("RATEBUDGET_TEST_SEED"), &seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range childRequests {
		tk, err := l.Acquire(context.Background(), "/apps")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		time.Sleep(time.Duration(rng.IntN(5000)) * time.Microsecond)
		tk.Done(i%childRefundEvery != childRefundEvery-1)
	}
	if err := out.Flush(); err != nil {
		return 1
	}
	return 0
}

// childEnviron is the environment a child needs to open the ledgers of k.
func childEnviron(k *storeKind) []string {
	env := os.Environ()
	if k.server != nil {
		env = append(env, "RATEBUDGET_TEST_REDIS="+k.server.URL)
	}
	return env
}

// openChildLedger opens, in a child process, the ledger at
// RATEBUDGET_TEST_PLACE: a directory, or a key on RATEBUDGET_TEST_REDIS.
func openChildLedger(cfg Config, opts ...Option) (*Ledger, error) {
	place := os.Getenv("RATEBUDGET_TEST_PLACE")
	url := os.Getenv("RATEBUDGET_TEST_REDIS")
	if url == "" {
		return Open(place, "multi", cfg, opts...)
	}
	st, err := redisstore.Open(url, nil)
	if err != nil {
		return nil, err
	}
	return OpenStore(st, place, cfg, opts...)
}
