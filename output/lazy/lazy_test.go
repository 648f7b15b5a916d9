package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestValueIsMadeOnceOnFirstGet(t *testing.T) {
	var made atomic.Int32
	v := Value[[]int]{New: func() []int { made.Add(1); return []int{1, 2} }}
	if made.Load() != 0 {
		t.Fatal("made before the first Get")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := v.Get(); len(got) != 2 {
				t.Errorf("Get = %v", got)
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != 1 {
		t.Fatalf("New ran %d times, want 1", n)
	}
}

func TestRegexpCompilesOnFirstGet(t *testing.T) {
	re := Regexp{Expr: `^a+$`}
	if re.re != nil {
		t.Fatal("compiled before the first Get")
	}
	if !re.Get().MatchString("aaa") || re.Get().MatchString("b") {
		t.Fatal("wrong expression")
	}
	if first, again := re.Get(), re.Get(); first != again {
		t.Fatal("compiled twice")
	}
}

func TestRegexpPanicsOnABadExpression(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	bad := Regexp{Expr: `(`}
	bad.Get()
}
