package formula

import (
	"fmt"
	"strings"
)

type parser struct {
	lx    lexer
	tok   token
	depth int
	reads Reads
	// lit and litV: the expression just parsed is the literal litV (so an
	// operator can take it as a constant instead of calling it).
	lit  bool
	litV value
}

func (p *parser) next() { p.tok = p.lx.next() }

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Pos: p.tok.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) expect(k tokKind, what string) error {
	if p.tok.kind != k {
		return p.errorf("expected %s, found %s", what, p.tok.describe())
	}
	p.next()
	return nil
}

// expr := and (OR and)*. Every nested expression (parentheses, arguments)
// goes through expr, which bounds the depth.
func (p *parser) expr() (eval, error) {
	if p.depth++; p.depth > MaxDepth {
		return nil, p.errorf("formula is nested deeper than %d levels", MaxDepth)
	}
	defer func() { p.depth-- }()
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.isWord("OR") {
		p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l, p.lit = logic(l, r, true), false
	}
	return l, nil
}

func (p *parser) isWord(w string) bool {
	return p.tok.kind == tokName && strings.EqualFold(p.tok.text, w)
}

func (p *parser) and() (eval, error) {
	l, err := p.compare()
	if err != nil {
		return nil, err
	}
	for p.isWord("AND") {
		p.next()
		r, err := p.compare()
		if err != nil {
			return nil, err
		}
		l, p.lit = logic(l, r, false), false
	}
	return l, nil
}

// comparison operators: the symbols and the words of text operators.
var comparisons = map[string]string{
	">": ">", "<": "<", "=": "=", ">=": ">=", "<=": "<=", "!=": "!=", "<>": "!=",
	"IS": "is", "ISNOT": "isnot", "CONTAINS": "contains", "STARTSWITH": "startswith",
	"ENDSWITH": "endswith", "IN_ARRAY": "in", "NOT_IN_ARRAY": "notin",
}

func (p *parser) comparison() (string, bool) {
	switch p.tok.kind {
	case tokOp:
		op, ok := comparisons[p.tok.text]
		return op, ok
	case tokName:
		op, ok := comparisons[strings.ToUpper(p.tok.text)]
		return op, ok
	}
	return "", false
}

// compare := sum (op sum)?: comparisons do not chain.
func (p *parser) compare() (eval, error) {
	l, err := p.sum()
	if err != nil {
		return nil, err
	}
	op, ok := p.comparison()
	if !ok {
		return l, nil
	}
	p.next()
	r, err := p.sum()
	if err != nil {
		return nil, err
	}
	if _, again := p.comparison(); again {
		return nil, p.errorf("comparisons do not chain: use AND")
	}
	rl, rv := p.lit, p.litV
	p.lit = false
	return comparator(op, l, r, rl, rv), nil
}

func (p *parser) sum() (eval, error) {
	l, err := p.product()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tokOp && (p.tok.text == "+" || p.tok.text == "-") {
		op := p.tok.text
		p.next()
		r, err := p.product()
		if err != nil {
			return nil, err
		}
		f := add
		if op == "-" {
			f = sub
		}
		l = p.binary(l, r, f)
	}
	return l, nil
}

func (p *parser) product() (eval, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tokOp && strings.Contains("*/%", p.tok.text) {
		op := p.tok.text
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		f := mul
		switch op {
		case "/":
			f = div
		case "%":
			f = mod
		}
		l = p.binary(l, r, f)
	}
	return l, nil
}

// unary := ('-' | '+')* primary (a loop, not recursion).
func (p *parser) unary() (eval, error) {
	neg := false
	for p.tok.kind == tokOp && (p.tok.text == "-" || p.tok.text == "+") {
		neg = neg != (p.tok.text == "-")
		p.next()
	}
	x, err := p.primary()
	if err != nil || !neg {
		return x, err
	}
	if p.lit && p.litV.k == kindNumber && p.litV.n != minNumber { // fold -literal
		p.litV.n = -p.litV.n
		return constant(p.litV), nil
	}
	p.lit = false
	return arith(constant(value{k: kindNumber}), x, sub), nil
}

// binary builds l op r, with r as a constant when it is a literal.
func (p *parser) binary(l, r eval, f func(a, b Number) (Number, error)) eval {
	rl, rv := p.lit, p.litV
	p.lit = false
	if rl {
		return arithConst(l, rv, f)
	}
	return arith(l, r, f)
}

func (p *parser) primary() (eval, error) {
	p.lit = false
	switch t := p.tok; t.kind {
	case tokNumber:
		p.next()
		p.lit, p.litV = true, value{k: kindNumber, n: t.num}
		return constant(p.litV), nil
	case tokText:
		p.next()
		p.lit, p.litV = true, value{k: kindText, s: t.text}
		return constant(p.litV), nil
	case tokLParen:
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		return x, p.expect(tokRParen, `")"`)
	case tokName:
		x, err := p.name()
		p.lit = false
		return x, err
	case tokBad:
		return nil, p.errorf("unexpected %s", t.describe())
	}
	return nil, p.errorf("expected a value, found %s", p.tok.describe())
}

// name parses an operand or a function call.
func (p *parser) name() (eval, error) {
	t := p.tok
	upper := strings.ToUpper(t.text)
	p.next()
	if op, ok := operands[upper]; ok {
		p.reads |= op.reads
		return op.eval, nil
	}
	if m, ok := metadataOperands[upper]; ok {
		key, err := p.keyArgument(upper)
		if err != nil {
			return nil, err
		}
		p.reads |= m.reads
		return metadata(m.src, key), nil
	}
	if upper == "SWITCH" {
		return p.switchCall(t)
	}
	if f, ok := functions[upper]; ok {
		args, err := p.arguments(upper)
		if err != nil {
			return nil, err
		}
		if len(args) < f.min || (f.max > 0 && len(args) > f.max) {
			return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("%s takes %s", upper, f.arity)}
		}
		return f.build(args), nil
	}
	if unsupported[upper] {
		return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("%s is not supported by this engine", upper)}
	}
	return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("unknown name %s", t.text)}
}

// keyArgument parses ("key"): a metadata key is a text literal.
func (p *parser) keyArgument(name string) (string, error) {
	if err := p.expect(tokLParen, `"(" after `+name); err != nil {
		return "", err
	}
	if p.tok.kind != tokText {
		return "", p.errorf("%s takes a metadata key in quotes", name)
	}
	key := p.tok.text
	p.next()
	return key, p.expect(tokRParen, `")"`)
}

// arguments parses (a; b; ...).
func (p *parser) arguments(name string) ([]eval, error) {
	if err := p.expect(tokLParen, `"(" after `+name); err != nil {
		return nil, err
	}
	var args []eval
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.tok.kind != tokSemi {
			break
		}
		p.next()
	}
	return args, p.expect(tokRParen, `")" or ";"`)
}

// switchCall parses SWITCH(x;SWITCH_CASE(v;r) SWITCH_CASE(v;r)...;default),
// the cases separated by spaces or semicolons, the default optional.
func (p *parser) switchCall(t token) (eval, error) {
	if err := p.expect(tokLParen, `"(" after SWITCH`); err != nil {
		return nil, err
	}
	subject, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.expect(tokSemi, `";" after the SWITCH value`); err != nil {
		return nil, err
	}
	var cases [][2]eval
	var otherwise eval
	for otherwise == nil {
		if !p.isWord("SWITCH_CASE") {
			if len(cases) == 0 {
				return nil, &SyntaxError{Pos: t.pos, Msg: "SWITCH needs at least one SWITCH_CASE"}
			}
			if otherwise, err = p.expr(); err != nil {
				return nil, err
			}
			break
		}
		p.next()
		args, err := p.arguments("SWITCH_CASE")
		if err != nil {
			return nil, err
		}
		if len(args) != 2 {
			return nil, p.errorf("SWITCH_CASE takes 2 arguments (value; result)")
		}
		cases = append(cases, [2]eval{args[0], args[1]})
		if p.tok.kind == tokSemi {
			p.next()
		} else if !p.isWord("SWITCH_CASE") {
			break
		}
	}
	if err := p.expect(tokRParen, `")"`); err != nil {
		return nil, err
	}
	return switchOf(subject, cases, otherwise), nil
}
