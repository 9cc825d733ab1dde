package discount

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/promoengine/promo/discount/formula"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// Facts are what a discount's formulas read besides the order: the
// metadata of the customer, of the redemption request and of the
// redeemable (the voucher or promotion tier). A nil *Facts reads as empty.
type Facts struct {
	Customer   promotype.Metadata
	Redemption promotype.Metadata
	Redeemable promotype.Metadata
	// Voucher is the voucher being validated (VOUCHER_* operands); nil for
	// a promotion tier.
	Voucher *VoucherFacts
}

// VoucherFacts are the counters of a voucher formulas read.
type VoucherFacts struct {
	RedemptionQuantity *int64 // nil: unlimited
	RedeemedQuantity   int64
	PublishCount       int64
}

// programs caches parsed formulas by their text, so that a formula is
// parsed once per process however many discounts and requests carry it;
// past maxPrograms distinct texts, further ones are parsed at each use.
var (
	programs    sync.Map // string → *formula.Program
	programsLen atomic.Int64
)

const maxPrograms = 1 << 14

// recent is a direct-mapped cache in front of programs, indexed by where
// the formula's text lives: the discount objects of a snapshot keep their
// text in place, so a lookup costs a pointer load and a string comparison
// whose pointers are equal. A slot holding another text only misses.
var recent [256]atomic.Pointer[formula.Program]

func recentSlot(src string) *atomic.Pointer[formula.Program] {
	return &recent[(uintptr(unsafe.Pointer(unsafe.StringData(src)))>>4)%uintptr(len(recent))]
}

// program returns the parsed formula src.
func program(src string) (*formula.Program, error) {
	slot := recentSlot(src)
	if p := slot.Load(); p != nil && p.Source() == src {
		return p, nil
	}
	if p, ok := programs.Load(src); ok {
		slot.Store(p.(*formula.Program))
		return p.(*formula.Program), nil
	}
	p, err := formula.Parse(src)
	if err != nil {
		return nil, err
	}
	slot.Store(p)
	if programsLen.Load() < maxPrograms {
		if _, loaded := programs.LoadOrStore(src, p); !loaded {
			programsLen.Add(1)
		}
	}
	return p, nil
}

// CheckFormula parses a formula as a request gives it; the error says
// what is wrong and where (docs/formulas.md is the language).
func CheckFormula(src string) error {
	_, err := program(src)
	return err
}

// scratch is the memory of one evaluation, pooled: an Env handed to the
// program's closures would otherwise move to the heap at every call.
type evalScratch struct {
	env                     formula.Env
	item, cheapest, dearest formula.Item
	voucher                 formula.Voucher
}

var scratches = sync.Pool{New: func() any { return new(evalScratch) }}

// evalEnv is what the calculation's formulas read besides the order: the
// facts, and the scratch to evaluate in (nil: one from the pool).
type evalEnv struct {
	facts Facts
	es    *evalScratch
}

// evalFormula evaluates src over o (line ≥ 0: the order line a product
// discount is pricing) and f's facts. ok is false when the formula cannot be
// computed: the caller then uses the static value.
func evalFormula(src string, o *order.Order, f *evalEnv, line int) (n formula.Number, ok bool) {
	p, err := program(src)
	if err != nil {
		return 0, false
	}
	sc, pooled := f.es, false
	if sc == nil {
		sc, pooled = scratches.Get().(*evalScratch), true
	}
	env := &sc.env
	facts := &f.facts
	*env = formula.Env{OrderAmount: o.Amount, OrderMetadata: o.Metadata,
		CustomerMetadata: facts.Customer, RedemptionMetadata: facts.Redemption, RedeemableMetadata: facts.Redeemable}
	if facts.Voucher != nil {
		sc.voucher = formula.Voucher{RedeemedQuantity: facts.Voucher.RedeemedQuantity, PublishCount: facts.Voucher.PublishCount}
		if q := facts.Voucher.RedemptionQuantity; q != nil {
			sc.voucher.RedemptionQuantity, sc.voucher.HasRedemptionQuantity = *q, true
		}
		env.Voucher = &sc.voucher
	}
	reads := p.Reads()
	if reads&formula.ReadsOrderCounts != 0 {
		env.OrderItemsQuantity = int64(len(o.Items))
		for i := range o.Items {
			env.OrderUnitsQuantity += o.Items[i].Quantity
		}
	}
	if reads&formula.ReadsItem != 0 && line >= 0 && line < len(o.Items) {
		sc.item = formulaItem(&o.Items[line])
		env.Item = &sc.item
	}
	if reads&(formula.ReadsCheapest|formula.ReadsMostExpensive) != 0 {
		for i := range o.Items {
			if o.Items[i].Price == nil {
				continue
			}
			it := formulaItem(&o.Items[i])
			if env.Cheapest == nil || formula.Better(&it, &sc.cheapest, true) {
				sc.cheapest, env.Cheapest = it, &sc.cheapest
			}
			if env.MostExpensive == nil || formula.Better(&it, &sc.dearest, false) {
				sc.dearest, env.MostExpensive = it, &sc.dearest
			}
		}
	}
	n, err = p.Eval(env)
	// Keep no order or metadata alive in the pool: clear what was set.
	*env = formula.Env{}
	if reads&formula.ReadsItem != 0 {
		sc.item = formula.Item{}
	}
	if reads&(formula.ReadsCheapest|formula.ReadsMostExpensive) != 0 {
		sc.cheapest, sc.dearest = formula.Item{}, formula.Item{}
	}
	if pooled {
		scratches.Put(sc)
	}
	return n, err == nil
}

func formulaItem(it *order.Item) formula.Item {
	out := formula.Item{Amount: it.Amount, Subtotal: it.SubtotalAmount, Quantity: it.Quantity, Metadata: it.Metadata}
	if it.Price != nil {
		out.Price, out.HasPrice = *it.Price, true
	}
	if it.Product != nil {
		out.ProductMetadata = it.Product.Metadata
	}
	return out
}

// money is an amount formula's result in minor units, or the static value
// when there is no formula, it fails or its result is negative or above
// order.MaxAmount.
func money(src *string, static int64, o *order.Order, f *evalEnv, line int) int64 {
	if src == nil {
		return static
	}
	n, ok := evalFormula(*src, o, f, line)
	if !ok || n < 0 {
		return static
	}
	if m := n.MinorUnits(); m <= order.MaxAmount {
		return m
	}
	return static
}

// amountOff is the amount_off for line (−1: the order).
func (d *Discount) amountOff(o *order.Order, f *evalEnv, line int) int64 {
	return money(d.AmountOffFormula, order.RoundUnits(d.AmountOff.Decimal), o, f, line)
}

// fixedAmount is the fixed_amount for line (−1: the order).
func (d *Discount) fixedAmount(o *order.Order, f *evalEnv, line int) int64 {
	return money(d.FixedAmountFormula, order.RoundUnits(d.FixedAmount.Decimal), o, f, line)
}

// percentOf is percent_off percent of amount (for line; −1: the order),
// rounded half-up like order.PercentOf; a formula's result outside 0..100
// falls back to the static percent_off.
func (d *Discount) percentOf(amount int64, o *order.Order, f *evalEnv, line int) int64 {
	if d.PercentOffFormula != nil {
		if n, ok := evalFormula(*d.PercentOffFormula, o, f, line); ok && n >= 0 && n <= 100_000_000 {
			if amount <= 0 || n == 0 {
				return 0
			}
			return order.Ratio(amount, n.Millionths(), 100_000_000) // millionths of a percent
		}
	}
	return order.PercentOf(amount, d.PercentOff.Decimal)
}

// unitCount is unit_off, or its formula's result rounded half away from
// zero to a whole number of units when that is 1..order.MaxAmount.
func unitCount(static *int64, src *string, o *order.Order, f *evalEnv) int64 {
	n := unitOff(static)
	if src == nil {
		return n
	}
	if v, ok := evalFormula(*src, o, f, -1); ok {
		if u := v.Integer(); u >= 1 && u <= order.MaxAmount {
			return u
		}
	}
	return n
}

// newPrice is the new unit price of a FIXED item discount on line under
// entry e: the entry's price_formula, else its price, else fixed_amount
// (and its formula).
func (d *Discount) newPrice(o *order.Order, f *evalEnv, e *Target, line int) int64 {
	if e.Price == nil {
		return money(e.PriceFormula, d.fixedAmount(o, f, line), o, f, line)
	}
	return money(e.PriceFormula, *e.Price, o, f, line)
}
