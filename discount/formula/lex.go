package formula

import (
	"fmt"
	"strings"
)

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokNumber
	tokText
	tokName
	tokOp // + - * / % > < = >= <= != <>
	tokLParen
	tokRParen
	tokSemi
	tokBad
)

type token struct {
	kind tokKind
	text string // the name, the operator, the text literal's content
	num  Number
	pos  int
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of formula"
	case tokText:
		return fmt.Sprintf("text %q", t.text)
	case tokBad:
		return fmt.Sprintf("character %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

type lexer struct {
	src string
	pos int
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (!first && c >= '0' && c <= '9')
}

func (lx *lexer) next() token {
	for lx.pos < len(lx.src) && strings.IndexByte(" \t\r\n", lx.src[lx.pos]) >= 0 {
		lx.pos++
	}
	start := lx.pos
	if start >= len(lx.src) {
		return token{kind: tokEOF, pos: start}
	}
	c := lx.src[start]
	switch {
	case c >= '0' && c <= '9' || c == '.':
		end := start
		for end < len(lx.src) && (lx.src[end] >= '0' && lx.src[end] <= '9' || lx.src[end] == '.') {
			end++
		}
		lx.pos = end
		n, ok := parseNumber(lx.src[start:end])
		if !ok {
			return token{kind: tokBad, text: lx.src[start:end], pos: start}
		}
		return token{kind: tokNumber, num: n, text: lx.src[start:end], pos: start}
	case isNameByte(c, true):
		end := start
		for end < len(lx.src) && isNameByte(lx.src[end], false) {
			end++
		}
		lx.pos = end
		return token{kind: tokName, text: lx.src[start:end], pos: start}
	case c == '"' || c == '\'':
		var b strings.Builder
		for i := start + 1; i < len(lx.src); i++ {
			switch ch := lx.src[i]; {
			case ch == '\\' && i+1 < len(lx.src):
				i++
				b.WriteByte(lx.src[i])
			case ch == c:
				lx.pos = i + 1
				return token{kind: tokText, text: b.String(), pos: start}
			default:
				b.WriteByte(ch)
			}
		}
		lx.pos = len(lx.src)
		return token{kind: tokBad, text: lx.src[start:], pos: start}
	case c == '(':
		lx.pos++
		return token{kind: tokLParen, text: "(", pos: start}
	case c == ')':
		lx.pos++
		return token{kind: tokRParen, text: ")", pos: start}
	case c == ';':
		lx.pos++
		return token{kind: tokSemi, text: ";", pos: start}
	case strings.IndexByte("+-*/%=", c) >= 0:
		lx.pos++
		return token{kind: tokOp, text: string(c), pos: start}
	case c == '>' || c == '<' || c == '!':
		lx.pos++
		if lx.pos < len(lx.src) && (lx.src[lx.pos] == '=' || (c == '<' && lx.src[lx.pos] == '>')) {
			lx.pos++
			return token{kind: tokOp, text: lx.src[start:lx.pos], pos: start}
		}
		if c == '!' {
			return token{kind: tokBad, text: "!", pos: start}
		}
		return token{kind: tokOp, text: string(c), pos: start}
	}
	// One (possibly multi-byte) character that starts nothing.
	end := start + 1
	for end < len(lx.src) && lx.src[end]&0xC0 == 0x80 {
		end++
	}
	lx.pos = end
	return token{kind: tokBad, text: lx.src[start:end], pos: start}
}
