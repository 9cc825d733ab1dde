package rule

import (
	"fmt"
	"strings"
)

// expr is a node of a parsed logic expression: a rule reference or an
// and/or of sub-expressions.
type expr struct {
	op   exprOp
	rule int // index into Program.rules, for leaves
	kids []*expr
}

type exprOp uint8

const (
	opLeaf exprOp = iota
	opAnd
	opOr
)

// parseLogic parses `logic`: rule keys, `and` / `or` in any case,
// parentheses and free white space; `and` binds tighter than `or`. index
// maps a rule key to its position; every key named must exist.
func parseLogic(s string, index map[string]int) (*expr, error) {
	p := &logicParser{toks: tokenize(s), index: index}
	if len(p.toks) == 0 {
		return nil, nil
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in logic %q", p.toks[p.pos], s)
	}
	return e, nil
}

func tokenize(s string) []string {
	var toks []string
	cur := strings.Builder{}
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == '(' || r == ')':
			flush()
			toks = append(toks, string(r))
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return toks
}

type logicParser struct {
	toks  []string
	pos   int
	index map[string]int
	depth int
}

const maxLogicDepth = 64

func (p *logicParser) peekWord(w string) bool {
	return p.pos < len(p.toks) && strings.EqualFold(p.toks[p.pos], w)
}

func (p *logicParser) or() (*expr, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peekWord("or") {
		p.pos++
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		left = join(opOr, left, right)
	}
	return left, nil
}

func (p *logicParser) and() (*expr, error) {
	left, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.peekWord("and") {
		p.pos++
		right, err := p.term()
		if err != nil {
			return nil, err
		}
		left = join(opAnd, left, right)
	}
	return left, nil
}

func (p *logicParser) term() (*expr, error) {
	if p.pos >= len(p.toks) {
		return nil, fmt.Errorf("logic ends too early")
	}
	t := p.toks[p.pos]
	p.pos++
	switch {
	case t == "(":
		if p.depth++; p.depth > maxLogicDepth {
			return nil, fmt.Errorf("logic nests deeper than %d", maxLogicDepth)
		}
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		p.depth--
		if p.pos >= len(p.toks) || p.toks[p.pos] != ")" {
			return nil, fmt.Errorf("logic has an unclosed parenthesis")
		}
		p.pos++
		return e, nil
	case strings.EqualFold(t, "not"):
		return nil, fmt.Errorf("logic does not support 'not'")
	case t == ")" || strings.EqualFold(t, "and") || strings.EqualFold(t, "or"):
		return nil, fmt.Errorf("unexpected %q in logic", t)
	}
	i, ok := p.index[t]
	if !ok {
		return nil, fmt.Errorf("logic names rule %q, which is not defined", t)
	}
	return &expr{op: opLeaf, rule: i}, nil
}

// join flattens chains of the same operator: (1 and 2) and 3 → and(1, 2, 3).
func join(op exprOp, a, b *expr) *expr {
	if a.op == op {
		a.kids = append(a.kids, b)
		return a
	}
	return &expr{op: op, kids: []*expr{a, b}}
}
