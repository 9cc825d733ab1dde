package memory

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFirstK(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 100, 1000} {
		for _, k := range []int{0, 1, 3, 10, 99, 1000} {
			for _, back := range []bool{false, true} {
				s := make([]int, n)
				for i := range s {
					s[i] = r.IntN(50)
				}
				want := slices.Clone(s)
				slices.Sort(want)
				got := firstK(slices.Clone(s), min(k, n), back, cmp.Compare[int])
				if !slices.Equal(got, want[:min(k, n)]) {
					t.Fatalf("n %d k %d backwards %v: %v, want %v", n, k, back, got, want[:min(k, n)])
				}
			}
		}
	}
}

// The index agrees with a map over random adds and deletes, through growth
// and tombstones.
func TestRefIndex(t *testing.T) {
	keys := []string{}
	for i := range 5000 {
		keys = append(keys, fmt.Sprintf("key-%d", i))
	}
	ix := newRefIndex(func(r vref) string { return keys[r.row] })
	ref := map[string]int32{}
	r := rand.New(rand.NewPCG(3, 4))
	for range 50_000 {
		i := int32(r.IntN(len(keys)))
		k := keys[i]
		switch r.IntN(3) {
		case 0, 1:
			_, had := ref[k]
			if ix.add(vref{0, i}) == had {
				t.Fatalf("add %s: index and map disagree", k)
			}
			ref[k] = i
		case 2:
			_, had := ref[k]
			if ix.del(k) != had {
				t.Fatalf("del %s: index and map disagree", k)
			}
			delete(ref, k)
		}
	}
	if ix.len() != len(ref) {
		t.Fatalf("len %d, want %d", ix.len(), len(ref))
	}
	for i, k := range keys {
		got, ok := ix.get(k)
		_, want := ref[k]
		if ok != want || (ok && got.row != int32(i)) {
			t.Fatalf("get %s = %v %v, want %v", k, got, ok, want)
		}
	}
}

// len is the number of live entries (only the tests ask).
func (ix *refIndex) len() int { return ix.live }
