package export

// A spreadsheet that opens a CSV file runs a cell starting with =, +, -
// or @ as a formula (=HYPERLINK(...), =cmd|' /C calc'!A0, +SUM(...),
// @SUM(...), -2+3), and some skip a leading tab or carriage return before
// deciding (CSV injection). As OWASP recommends, every cell the export
// writes that starts with one of these six characters is prefixed with a
// single quote, so that spreadsheets show it as the text it is; the CSV
// quoting of the writer does the rest. A plain number (the engine's
// amounts, which may be negative: -12.50; a metadata number) is no
// formula and is written as it is, so numeric columns stay numbers.

// safeCell returns cell as an export writes it: neutralised when a
// spreadsheet could run it.
func safeCell(cell string) string {
	if cell == "" || !formulaLead(cell[0]) || number(cell) {
		return cell
	}
	return "'" + cell
}

// formulaLead reports whether a cell starting with b may be read as a
// formula.
func formulaLead(b byte) bool {
	switch b {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// number reports whether s is a plain decimal number (JSON's grammar: an
// optional minus, digits, an optional fraction and exponent), which every
// spreadsheet reads as a number.
func number(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == start {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		frac := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == frac {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == exp {
			return false
		}
	}
	return i == len(s)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
