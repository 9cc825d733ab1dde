package rule

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/promoengine/promo/promotype"
)

// randomProgram builds a random rule set over a small vocabulary of
// products, SKUs and metadata values, so that requests often match.
func randomProgram(r *rand.Rand) string {
	atoms := []func() string{
		func() string {
			return fmt.Sprintf(`{"name":"customer.metadata","property":"k%d","conditions":{"$is":["v%d"]}}`, r.IntN(3), r.IntN(3))
		},
		func() string {
			return fmt.Sprintf(`{"name":"customer.metadata","property":"k%d","conditions":{"$is_not":["v%d"]}}`, r.IntN(3), r.IntN(3))
		},
		func() string {
			return fmt.Sprintf(`{"name":"order.metadata","property":"k%d","conditions":{"$starts_with":["v"]}}`, r.IntN(3))
		},
		func() string {
			return fmt.Sprintf(`{"name":"order.items.any","conditions":{"$is":[{"id":"p%d","object":"product"},{"id":"s%d","object":"sku"}]}}`, r.IntN(5), r.IntN(5))
		},
		func() string {
			return fmt.Sprintf(`{"name":"order.items.every","conditions":{"$is":[{"id":"p%d","object":"product"},{"source_id":"src%d","object":"product"}]}}`, r.IntN(5), r.IntN(5))
		},
		func() string {
			return fmt.Sprintf(`{"name":"order.items.none","conditions":{"$is":[{"id":"p%d","object":"product"}]}}`, r.IntN(5))
		},
		func() string {
			return fmt.Sprintf(`{"name":"order.items.cheapest","conditions":{"$is":[{"id":"p%d","object":"product"}]}}`, r.IntN(5))
		},
		func() string {
			return fmt.Sprintf(`{"name":"order.amount","conditions":{"$more_than":[%d]}}`, r.IntN(5000))
		},
	}
	n := 1 + r.IntN(4)
	body := ""
	logic := ""
	for i := 1; i <= n; i++ {
		body += fmt.Sprintf(`,"%d":%s`, i, atoms[r.IntN(len(atoms))]())
		if i > 1 {
			logic += []string{" and ", " or "}[r.IntN(2)]
		}
		logic += fmt.Sprint(i)
	}
	return `{"logic":"` + logic + `"` + body + `}`
}

func randomInput(r *rand.Rand) *Input {
	in := &Input{Customer: Attrs{}, Order: Attrs{}, Amount: int64(r.IntN(6000))}
	for k := range 3 {
		if r.IntN(2) == 0 {
			in.Customer[fmt.Sprintf("k%d", k)] = Value{Kind: String, Str: fmt.Sprintf("v%d", r.IntN(3))}
		}
		if r.IntN(2) == 0 {
			in.Order[fmt.Sprintf("k%d", k)] = Value{Kind: String, Str: "v"}
		}
	}
	for range r.IntN(5) {
		it := Item{ProductID: fmt.Sprintf("p%d", r.IntN(5)), ProductSourceID: fmt.Sprintf("src%d", r.IntN(5)), Quantity: 1 + int64(r.IntN(3)), Price: int64(r.IntN(1000))}
		if r.IntN(2) == 0 {
			it.SKUID = fmt.Sprintf("s%d", r.IntN(5))
		}
		it.Amount = it.Price * it.Quantity
		in.Items = append(in.Items, it)
	}
	return in
}

// The index is sound: a program that passes is always among the candidates.
func TestIndexNeverSkipsAPassingProgram(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	progs := make([]*Program, 300)
	anchors := make([][][]string, len(progs))
	anchored := 0
	for i := range progs {
		progs[i] = compile(t, randomProgram(r))
		anchors[i] = Anchors(progs[i])
		if anchors[i] != nil {
			anchored++
		}
	}
	if anchored < len(progs)/2 {
		t.Fatalf("only %d of %d random programs are anchored: the test would prove little", anchored, len(progs))
	}
	ix := NewIndex(anchors)
	skipped := 0
	for range 2000 {
		in := randomInput(r)
		cands := ix.Candidates(in.Facts(nil), nil)
		skipped += len(progs) - len(cands)
		for i, p := range progs {
			if ok, _ := p.Eval(in); ok {
				if _, found := slices.BinarySearch(cands, int32(i)); !found {
					t.Fatalf("program %d passes but was not a candidate", i)
				}
			}
		}
	}
	if skipped == 0 {
		t.Error("the index never skipped a program")
	}
}

func TestAnchors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		js   string
		want []string
	}{
		{one("customer.metadata", "tier", `{"$is":["gold","silver"]}`), []string{"c\x00tier\x00gold", "c\x00tier\x00silver"}},
		{one("customer.metadata", "age", `{"$more_than":[18]}`), []string{"c\x00age"}},
		{one("customer.metadata", "tier", `{"$is_not":["gold"]}`), nil},
		{one("order.items.any", "", `{"$is":[{"id":"p1","object":"product"}]}`), []string{"p\x00p1"}},
		{one("order.items.none", "", `{"$is":[{"id":"p1","object":"product"}]}`), nil},
		{one("order.amount", "", `{"$more_than":[1]}`), nil},
		{`{"logic":"1 and 2","1":{"name":"order.amount","conditions":{"$more_than":[1]}},"2":{"name":"order.items.any","conditions":{"$is":[{"id":"s1","object":"sku"}]}}}`, []string{"s\x00s1"}},
		{`{"logic":"1 or 2","1":{"name":"order.amount","conditions":{"$more_than":[1]}},"2":{"name":"order.items.any","conditions":{"$is":[{"id":"s1","object":"sku"}]}}}`, nil},
	}
	for _, tc := range tests {
		if got := compile(t, tc.js).Anchor(); !slices.Equal(got, tc.want) {
			t.Errorf("Anchor(%s) = %q, want %q", tc.js, got, tc.want)
		}
	}
}

func FuzzCompileAndEval(f *testing.F) {
	f.Add(one("customer.metadata", "tier", `{"$is":["gold"]}`))
	f.Add(`{"logic":"(1 or 2) and 3","1":{"name":"order.amount","conditions":{"$more_than":[1]}},"2":{"name":"order.items.any","conditions":{"$is":[{"id":"p1","object":"product"}]},"rules":{"1":{"name":"order.items.quantity","conditions":{"$is":[2]}}}},"3":{"name":"order.metadata","property":"x","conditions":{"$count":[1]}}}`)
	f.Add(`{"logic":"1","1":{"name":"order.items.cheapest","conditions":{"$in":[{"source_id":"mug","object":"product"}]}}}`)
	f.Add(`{"logic":"not 1"}`)
	in := cart()
	f.Fuzz(func(t *testing.T, js string) {
		var s RuleSet
		if json.Unmarshal([]byte(js), &s) != nil {
			return
		}
		p, err := Compile(s, "m")
		if err != nil {
			if e := promotype.AsError(err); e.Code != 400 {
				t.Fatalf("Compile failed with a non-400: %v", err)
			}
			return
		}
		ok, _ := p.Eval(in)
		// Soundness of the anchor on the fixed cart.
		if ok {
			facts := in.Facts(nil)
			if a := p.Anchor(); a != nil && !slices.ContainsFunc(a, func(f string) bool { return slices.Contains(facts, f) }) {
				t.Fatalf("program passes but none of its anchor facts %q holds", a)
			}
		}
	})
}

func BenchmarkEvalTwoRules(b *testing.B) {
	p := compile(b, `{"logic":"1 and 2",
		"1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},
		"2":{"name":"order.items.any","conditions":{"$is":[{"id":"p49","object":"product"}]},"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[1]}}}}}`)
	in := &Input{Customer: AttrsOf(promotype.Metadata{"tier": "gold"})}
	for i := range 50 {
		in.Items = append(in.Items, Item{ProductID: fmt.Sprintf("p%d", i), Quantity: 1, Price: 100, Amount: 100})
	}
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := p.Eval(in); !ok {
			b.Fatal("must pass")
		}
	}
}

// A fact every entry shares is not used when each entry has a rarer one.
func TestIndexPrefersRareFacts(t *testing.T) {
	t.Parallel()
	var alts [][][]string
	for i := range 100 {
		p := compile(t, fmt.Sprintf(`{"logic":"1 and 2","1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},`+
			`"2":{"name":"order.items.any","conditions":{"$is":[{"id":"p%d","object":"product"}]}}}`, i))
		alts = append(alts, Anchors(p))
	}
	ix := NewIndex(alts)
	in := &Input{Customer: AttrsOf(promotype.Metadata{"tier": "gold"}), Items: []Item{{ProductID: "p7", Quantity: 1}}}
	if got := ix.Candidates(in.Facts(nil), nil); !slices.Equal(got, []int32{7}) {
		t.Errorf("candidates = %v, want only entry 7", got)
	}
}
