package startstop

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const bound = 5 * time.Second

func TestStartIdempotentStopWaits(t *testing.T) {
	var b Base
	var running, ended atomic.Int32
	loop := func(ctx context.Context, stop <-chan struct{}) {
		running.Add(1)
		<-stop
		ended.Add(1)
	}
	if !b.Start(context.Background(), loop) {
		t.Fatal("first Start did not start")
	}
	if b.Start(context.Background(), loop) {
		t.Fatal("second Start started again")
	}
	if !b.Running() {
		t.Fatal("not running after Start")
	}
	if !b.Stop() {
		t.Fatal("Stop of a running service reported false")
	}
	if got := ended.Load(); got != 1 {
		t.Fatalf("loops ended when Stop returned = %d, want 1", got)
	}
	if b.Stop() {
		t.Fatal("second Stop reported true")
	}
	if !b.Start(context.Background(), loop) {
		t.Fatal("Start after Stop did not start")
	}
	b.Stop()
	if diff := cmp.Diff(int32(2), running.Load()); diff != "" {
		t.Errorf("loop runs (-want +got):\n%s", diff)
	}
}

func TestWakeNeverBlocks(t *testing.T) {
	var b Base
	for range 3 {
		b.Wake()
	}
	select {
	case <-b.WakeC():
	default:
		t.Fatal("no signal pending after Wake")
	}
	select {
	case <-b.WakeC():
		t.Fatal("wakes did not collapse into one")
	default:
	}
}

func TestLoopCauses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	var b Base
	causes := make(chan int, 10)
	rounds := 0
	b.Start(ctx, func(ctx context.Context, stop <-chan struct{}) {
		Loop(ctx, stop, time.Hour, func(ctx context.Context, cause int) bool {
			causes <- cause
			rounds++
			return rounds == 1 // the first round asks for another at once
		}, b.WakeC())
	})
	got := []int{<-causes, <-causes}
	b.Wake()
	got = append(got, <-causes)
	b.Stop()
	if diff := cmp.Diff([]int{CauseStart, CauseAgain, 0}, got); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}

func TestLoopEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Loop(ctx, make(chan struct{}), time.Hour, func(context.Context, int) bool { return false })
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatal("Loop did not return after ctx ended")
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		attempt        int
		lowest, higest time.Duration
	}{
		{1, 75 * time.Millisecond, 125 * time.Millisecond},
		{2, 150 * time.Millisecond, 250 * time.Millisecond},
		{10, 750 * time.Millisecond, 1250 * time.Millisecond},
	} {
		for range 50 {
			d := Backoff(tc.attempt, 100*time.Millisecond, time.Second)
			if d < tc.lowest || d > tc.higest {
				t.Fatalf("Backoff(%d) = %s, want in [%s, %s]", tc.attempt, d, tc.lowest, tc.higest)
			}
		}
	}
}
