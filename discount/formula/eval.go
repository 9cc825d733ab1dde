package formula

import "strings"

func constant(v value) eval {
	return func(*Env) (value, error) { return v, nil }
}

// both evaluates l, then r.
func both(e *Env, l, r eval) (a, b value, err error) {
	if a, err = l(e); err == nil {
		b, err = r(e)
	}
	return a, b, err
}

// numbers returns a and b as numbers.
func numbers(a, b value) (x, y Number, err error) {
	if x, err = a.number(); err == nil {
		y, err = b.number()
	}
	return x, y, err
}

// texts returns a and b as text.
func texts(a, b value) (x, y string, err error) {
	if x, err = a.text(); err == nil {
		y, err = b.text()
	}
	return x, y, err
}

// numberOf evaluates ev to a number.
func numberOf(e *Env, ev eval) (Number, error) {
	v, err := ev(e)
	if err != nil {
		return 0, err
	}
	return v.number()
}

func arith(l, r eval, f func(a, b Number) (Number, error)) eval {
	return func(e *Env) (value, error) {
		a, b, err := both(e, l, r)
		if err != nil {
			return value{}, err
		}
		x, y, err := numbers(a, b)
		if err != nil {
			return value{}, err
		}
		n, err := f(x, y)
		return value{k: kindNumber, n: n}, err
	}
}

// arithConst is arith with a constant right side.
func arithConst(l eval, k value, f func(a, b Number) (Number, error)) eval {
	y, kerr := k.number()
	return func(e *Env) (value, error) {
		x, err := numberOf(e, l)
		if err == nil {
			err = kerr
		}
		if err != nil {
			return value{}, err
		}
		n, err := f(x, y)
		return value{k: kindNumber, n: n}, err
	}
}

// logic is l OR r (or) or l AND r, evaluating r only when it decides.
func logic(l, r eval, or bool) eval {
	return func(e *Env) (value, error) {
		a, err := l(e)
		if err != nil {
			return value{}, err
		}
		ta, err := a.truth()
		if err != nil {
			return value{}, err
		}
		if ta == or {
			return boolValue(ta), nil
		}
		b, err := r(e)
		if err != nil {
			return value{}, err
		}
		tb, err := b.truth()
		return boolValue(tb), err
	}
}

// equal compares two values: numbers (and text that reads as one) by
// value, text exactly, booleans as booleans.
func equal(a, b value) bool {
	if a.k == kindNumber || b.k == kindNumber {
		x, errA := a.number()
		y, errB := b.number()
		return errA == nil && errB == nil && x == y
	}
	if a.k != b.k || a.k == kindList {
		return false
	}
	return a.s == b.s && a.n == b.n
}

// comparison codes: one closure switches on them (cheaper than a second
// indirect call per evaluation).
const (
	cmpEq = iota
	cmpNe
	cmpGt
	cmpLt
	cmpGe
	cmpLe
	cmpIs
	cmpIsNot
	cmpStarts
	cmpEnds
	cmpContains
	cmpIn
	cmpNotIn
)

var comparisonCodes = map[string]int{"=": cmpEq, "!=": cmpNe, ">": cmpGt, "<": cmpLt, ">=": cmpGe, "<=": cmpLe,
	"is": cmpIs, "isnot": cmpIsNot, "startswith": cmpStarts, "endswith": cmpEnds, "contains": cmpContains,
	"in": cmpIn, "notin": cmpNotIn}

func comparator(op string, l, r eval, constant bool, k value) eval {
	code := comparisonCodes[op]
	if constant {
		return func(e *Env) (value, error) {
			a, err := l(e)
			if err != nil {
				return value{}, err
			}
			ok, err := compareValues(code, a, k)
			return boolValue(ok), err
		}
	}
	return func(e *Env) (value, error) {
		a, b, err := both(e, l, r)
		if err != nil {
			return value{}, err
		}
		ok, err := compareValues(code, a, b)
		return boolValue(ok), err
	}
}

func compareValues(code int, a, b value) (bool, error) {
	switch code {
	case cmpEq:
		return equal(a, b), nil
	case cmpNe:
		return !equal(a, b), nil
	case cmpGt, cmpLt, cmpGe, cmpLe:
		x, y, err := numbers(a, b)
		if err != nil {
			return false, err
		}
		switch code {
		case cmpGt:
			return x > y, nil
		case cmpLt:
			return x < y, nil
		case cmpGe:
			return x >= y, nil
		}
		return x <= y, nil
	case cmpContains:
		y, err := b.text()
		if err != nil {
			return false, err
		}
		if a.k == kindList {
			return inList(a.l, y), nil
		}
		x, err := a.text()
		return strings.Contains(x, y), err
	case cmpIn, cmpNotIn:
		x, err := a.text()
		if err != nil {
			return false, err
		}
		var in bool
		if b.k == kindList {
			in = inList(b.l, x)
		} else {
			list, err := b.text()
			if err != nil {
				return false, err
			}
			in = inCommaList(list, x)
		}
		return in == (code == cmpIn), nil
	}
	x, y, err := texts(a, b)
	if err != nil {
		return false, err
	}
	switch code {
	case cmpIs:
		return x == y, nil
	case cmpIsNot:
		return x != y, nil
	case cmpStarts:
		return strings.HasPrefix(x, y), nil
	}
	return strings.HasSuffix(x, y), nil
}

// inList reports whether a metadata array holds s (elements compared as
// text; numbers in their shortest form).
func inList(l []any, s string) bool {
	for _, x := range l {
		v, err := fromAny(x)
		if err != nil {
			continue
		}
		if t, err := v.text(); err == nil && t == s {
			return true
		}
	}
	return false
}

// inCommaList reports whether "a,b,c" holds s (parts trimmed of spaces).
func inCommaList(list, s string) bool {
	for list != "" {
		var part string
		part, list, _ = strings.Cut(list, ",")
		if strings.TrimSpace(part) == s {
			return true
		}
	}
	return false
}

// operand is a name without arguments.
type operand struct {
	eval  eval
	reads Reads
}

func money(n int64) (value, error) {
	x, err := fromMinor(n)
	return value{k: kindNumber, n: x}, err
}

func count(n int64) (value, error) {
	x, err := FromInt(n)
	return value{k: kindNumber, n: x}, err
}

// The lines an order item operand reads, and what it reads of them.
const (
	lineItem = iota
	lineCheapest
	lineMostExpensive
)

const (
	fieldPrice = iota
	fieldAmount
	fieldSubtotal
	fieldQuantity
)

func lineOf(e *Env, line int) *Item {
	switch line {
	case lineItem:
		return e.Item
	case lineCheapest:
		return e.Cheapest
	}
	return e.MostExpensive
}

// itemOperand reads field of a line (a switch, not a chain of closures).
func itemOperand(line, field int) eval {
	return func(e *Env) (value, error) {
		it := lineOf(e, line)
		if it == nil {
			return value{}, ErrMissing
		}
		switch field {
		case fieldPrice:
			if !it.HasPrice {
				return value{}, ErrMissing
			}
			return money(it.Price)
		case fieldAmount:
			return money(it.Amount)
		case fieldSubtotal:
			return money(it.Subtotal)
		}
		return count(it.Quantity)
	}
}

// linePrefixes name the lines: the operand's prefix and what it reads.
var linePrefixes = []struct {
	prefix string
	reads  Reads
}{lineItem: {"ORDER_ITEM_", ReadsItem}, lineCheapest: {"CHEAPEST_ORDER_ITEM_", ReadsCheapest}, lineMostExpensive: {"MOST_EXPENSIVE_ORDER_ITEM_", ReadsMostExpensive}}

var operands = func() map[string]operand {
	m := map[string]operand{
		"ORDER_AMOUNT":         {func(e *Env) (value, error) { return money(e.OrderAmount) }, 0},
		"ORDER_ITEMS_QUANTITY": {func(e *Env) (value, error) { return count(e.OrderItemsQuantity) }, ReadsOrderCounts},
		"ORDER_UNITS_QUANTITY": {func(e *Env) (value, error) { return count(e.OrderUnitsQuantity) }, ReadsOrderCounts},
	}
	voucher := func(f func(v *Voucher) (value, error)) eval {
		return func(e *Env) (value, error) {
			if e.Voucher == nil {
				return value{}, ErrMissing
			}
			return f(e.Voucher)
		}
	}
	m["VOUCHER_REDEMPTION_QUANTITY"] = operand{voucher(func(v *Voucher) (value, error) {
		if !v.HasRedemptionQuantity {
			return value{}, ErrMissing
		}
		return count(v.RedemptionQuantity)
	}), 0}
	m["VOUCHER_REDEEMED_QUANTITY"] = operand{voucher(func(v *Voucher) (value, error) { return count(v.RedeemedQuantity) }), 0}
	m["VOUCHER_PUBLISH_COUNT"] = operand{voucher(func(v *Voucher) (value, error) { return count(v.PublishCount) }), 0}
	for line, l := range linePrefixes {
		for field, name := range []string{fieldPrice: "PRICE", fieldAmount: "AMOUNT", fieldSubtotal: "SUBTOTAL", fieldQuantity: "UNITS_QUANTITY"} {
			m[l.prefix+name] = operand{itemOperand(line, field), l.reads}
		}
	}
	return m
}()

// Where a metadata operand reads: the order, the customer, the request,
// the redeemable, then a line's or its product's (metaLine + 2 × line +
// 1 for the product).
const (
	metaOrder = iota
	metaCustomer
	metaRedemption
	metaRedeemable
	metaLine
)

func metadataOf(e *Env, src int) map[string]any {
	switch src {
	case metaOrder:
		return e.OrderMetadata
	case metaCustomer:
		return e.CustomerMetadata
	case metaRedemption:
		return e.RedemptionMetadata
	case metaRedeemable:
		return e.RedeemableMetadata
	}
	it := lineOf(e, (src-metaLine)/2)
	switch {
	case it == nil:
		return nil
	case (src-metaLine)%2 == 1:
		return it.ProductMetadata
	}
	return it.Metadata
}

// metadataOperand is NAME("key"), reading the metadata of src.
type metadataOperand struct {
	src   int
	reads Reads
}

var metadataOperands = func() map[string]metadataOperand {
	m := map[string]metadataOperand{
		"ORDER_METADATA":      {metaOrder, 0},
		"CUSTOMER_METADATA":   {metaCustomer, 0},
		"REDEMPTION_METADATA": {metaRedemption, 0},
		"REDEEMABLE_METADATA": {metaRedeemable, 0},
	}
	for line, l := range linePrefixes {
		m[l.prefix+"METADATA"] = metadataOperand{metaLine + 2*line, l.reads}
		m[l.prefix+"PRODUCT_METADATA"] = metadataOperand{metaLine + 2*line + 1, l.reads}
	}
	return m
}()

func metadata(src int, key string) eval {
	return func(e *Env) (value, error) {
		v, ok := metadataOf(e, src)[key]
		if !ok {
			return value{}, ErrMissing
		}
		return fromAny(v)
	}
}

// unsupported are names of the hosted language this engine does not
// evaluate (dates, publication metadata): a
// formula naming one is refused at parse time, never silently wrong.
var unsupported = map[string]bool{
	"PUBLICATION_METADATA": true, "VOUCHER_START_DATE": true, "VOUCHER_EXPIRATION_DATE": true,
	"PROMOTION_TIER_START_DATE": true, "PROMOTION_TIER_EXPIRATION_DATE": true, "CUSTOMER_BIRTHDATE": true,
	"DAY_OF_MONTH": true, "MONTH": true, "YEAR": true, "TODAY": true, "NOW": true, "DATE": true,
	"DATE_TIME": true, "DAYS_SINCE": true, "MONTHS_SINCE": true, "YEARS_SINCE": true, "DAYS_UNTIL": true,
	"MONTHS_UNTIL": true, "DATE_IS": true, "DATE_IS_NOT": true, "IS_AFTER": true, "IS_BEFORE": true,
}

// function is a call with a number of arguments in [min, max] (max 0:
// any number from min).
type function struct {
	min, max int
	arity    string
	build    func(args []eval) eval
}

var functions = map[string]function{
	"IF": {3, 3, "3 arguments (condition; value if true; value if false)", func(a []eval) eval {
		cond, yes, no := a[0], a[1], a[2]
		return func(e *Env) (value, error) {
			c, err := cond(e)
			if err != nil {
				return value{}, err
			}
			t, err := c.truth()
			if err != nil {
				return value{}, err
			}
			if t {
				return yes(e)
			}
			return no(e)
		}
	}},
	"MIN":        {1, 0, "at least 1 argument", func(a []eval) eval { return extreme(a, true) }},
	"MAX":        {1, 0, "at least 1 argument", func(a []eval) eval { return extreme(a, false) }},
	"POW":        {2, 2, "2 arguments (number; power)", func(a []eval) eval { return arith(a[0], a[1], pow) }},
	"ROUND":      {1, 2, "1 or 2 arguments (number; precision)", func(a []eval) eval { return rounding(a, roundHalf) }},
	"FLOOR":      {1, 2, "1 or 2 arguments (number; precision)", func(a []eval) eval { return rounding(a, roundFloor) }},
	"CEIL":       {1, 2, "1 or 2 arguments (number; precision)", func(a []eval) eval { return rounding(a, roundCeil) }},
	"DEFAULT_TO": {2, 0, "at least 2 arguments", defaultTo},
}

func extreme(args []eval, lowest bool) eval {
	return func(e *Env) (value, error) {
		var best Number
		for i, a := range args {
			n, err := numberOf(e, a)
			if err != nil {
				return value{}, err
			}
			if i == 0 || (n < best) == lowest && n != best {
				best = n
			}
		}
		return value{k: kindNumber, n: best}, nil
	}
}

func rounding(args []eval, mode int) eval {
	places := constant(value{k: kindNumber})
	if len(args) == 2 {
		places = args[1]
	}
	return arith(args[0], places, func(a, p Number) (Number, error) { return roundTo(a, p, mode) })
}

// defaultTo returns the first argument that evaluates without an error.
func defaultTo(args []eval) eval {
	return func(e *Env) (value, error) {
		var err error
		for _, a := range args {
			var v value
			if v, err = a(e); err == nil {
				return v, nil
			}
		}
		return value{}, err
	}
}

func switchOf(subject eval, cases [][2]eval, otherwise eval) eval {
	return func(e *Env) (value, error) {
		s, err := subject(e)
		if err != nil {
			return value{}, err
		}
		for _, c := range cases {
			v, err := c[0](e)
			if err != nil {
				return value{}, err
			}
			if equal(s, v) {
				return c[1](e)
			}
		}
		if otherwise == nil {
			return value{}, ErrNoCase
		}
		return otherwise(e)
	}
}
