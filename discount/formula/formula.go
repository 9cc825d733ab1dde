package formula

import (
	"fmt"
	"strings"
)

// Limits of a formula: its length in bytes and how deeply its parentheses
// and function calls nest. They bound parsing and evaluation time.
const (
	MaxLength = 1024
	MaxDepth  = 24
)

// Program is a parsed formula. It is immutable and safe for concurrent use.
type Program struct {
	src   string
	root  eval
	reads Reads
}

// Source returns the formula as written.
func (p *Program) Source() string { return p.src }

// Reads says which optional parts of an Env the program reads.
func (p *Program) Reads() Reads { return p.reads }

// Eval evaluates the program over env. A result that is not a number, an
// operand without a value, a division by zero or a number out of range is
// an error (ErrType, ErrMissing, ErrDivision, ErrOverflow, ErrNoCase).
func (p *Program) Eval(env *Env) (Number, error) {
	v, err := p.root(env)
	if err != nil {
		return 0, err
	}
	return v.number()
}

// SyntaxError is a formula that cannot be parsed: what is wrong and where
// (a byte offset).
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (at position %d)", e.Msg, e.Pos) }

// kind is the type of a value.
type kind uint8

const (
	kindNumber kind = iota
	kindText
	kindBool
	kindList // a metadata array (only `contains` reads it)
)

// value is the result of a node. It is passed by value: nothing escapes.
type value struct {
	k kind
	n Number // the number, or 1 / 0 for a boolean
	s string
	l []any
}

func boolValue(b bool) value {
	if b {
		return value{k: kindBool, n: 1}
	}
	return value{k: kindBool}
}

// number returns v as a number; text that reads as a decimal counts as one
// (metadata often holds numbers as text).
func (v value) number() (Number, error) {
	switch v.k {
	case kindNumber:
		return v.n, nil
	case kindText:
		if n, ok := parseNumber(v.s); ok {
			return n, nil
		}
	}
	return 0, ErrType
}

// truth returns v as a condition: a boolean, or a number other than zero.
func (v value) truth() (bool, error) {
	switch v.k {
	case kindBool, kindNumber:
		return v.n != 0, nil
	}
	return false, ErrType
}

// text returns v as text (a number in its shortest form).
func (v value) text() (string, error) {
	switch v.k {
	case kindText:
		return v.s, nil
	case kindNumber:
		return v.n.String(), nil
	}
	return "", ErrType
}

// eval is a compiled node.
type eval func(*Env) (value, error)

// Parse parses src into a program, or returns a *SyntaxError naming what
// is wrong: an unknown name, an operand this engine does not evaluate, a
// wrong number of arguments, a formula longer than MaxLength or nested
// deeper than MaxDepth.
func Parse(src string) (*Program, error) {
	if len(src) > MaxLength {
		return nil, &SyntaxError{Pos: MaxLength, Msg: fmt.Sprintf("formula is longer than %d characters", MaxLength)}
	}
	if strings.TrimSpace(src) == "" {
		return nil, &SyntaxError{Msg: "formula is empty"}
	}
	p := &parser{lx: lexer{src: src}}
	p.next()
	root, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.errorf("unexpected %s", p.tok.describe())
	}
	return &Program{src: src, root: root, reads: p.reads}, nil
}
