package imports

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// Limits of the input of one action.
const (
	// MaxCSVBytes bounds an uploaded CSV file (the hosted service takes
	// files of up to 10 MB); a larger one is refused with 413.
	MaxCSVBytes = 10 << 20
	// MaxRows bounds the rows of one action (a CSV's data rows, a JSON
	// list's items): the hosted service imports up to 100,000 codes at
	// once.
	MaxRows = 100_000
	// PageRows is how many rows one stored page of an action's input holds.
	PageRows = 5000
)

// ErrTooLarge is the 413 of an uploaded file over MaxCSVBytes.
func ErrTooLarge() *promotype.Error {
	return promotype.Newf(413, "payload_too_large", "Payload Too Large", "The CSV file must NOT be larger than %d bytes", MaxCSVBytes)
}

// Input is the input of an action as it is stored: its rows cut into
// pages (JSON arrays of PageRows rows at most).
type Input struct {
	Rows  int
	Pages [][]byte
}

// pager cuts rows into pages as they come.
type pager struct {
	in  Input
	cur []any
}

func (p *pager) add(row any) error {
	if p.in.Rows >= MaxRows {
		return promotype.InvalidPayload("The input must NOT have more than %d rows", MaxRows)
	}
	p.in.Rows++
	p.cur = append(p.cur, row)
	if len(p.cur) == PageRows {
		return p.flush()
	}
	return nil
}

func (p *pager) flush() error {
	if len(p.cur) == 0 {
		return nil
	}
	b, err := json.Marshal(p.cur)
	if err != nil {
		return err
	}
	p.in.Pages = append(p.in.Pages, b)
	p.cur = p.cur[:0]
	return nil
}

// CSV is an uploaded CSV file as an action stores it: its header (the
// column names as given) and its data rows in pages.
type CSV struct {
	Header []string
	Input
}

// ReadCSV reads a CSV file (a header line, then rows) from r, streaming
// with encoding/csv: at most MaxCSVBytes bytes (ErrTooLarge beyond, when
// r does not cut it first) and MaxRows rows. Rows may have fewer fields
// than the header (the missing ones are empty); blank lines are skipped.
// A file without a header, with an empty or repeated column name, or that
// is not CSV is a 400.
func ReadCSV(r io.Reader) (*CSV, error) {
	lr := &limitReader{r: r, left: MaxCSVBytes + 1}
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		if lr.over() {
			return nil, ErrTooLarge()
		}
		if errors.Is(err, io.EOF) {
			return nil, promotype.InvalidPayload("The CSV file must have a header line")
		}
		return nil, csvError(err)
	}
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if h == "" {
			return nil, promotype.InvalidPayload("Column %d of the CSV header has no name", i+1)
		}
		if seen[strings.ToLower(h)] {
			return nil, promotype.InvalidPayload("Column %s appears twice in the CSV header", h)
		}
		seen[strings.ToLower(h)] = true
		header[i] = h
	}
	out := &CSV{Header: header}
	var p pager
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if lr.over() {
				return nil, ErrTooLarge()
			}
			return nil, csvError(err)
		}
		if len(rec) > len(header) {
			return nil, promotype.InvalidPayload("Line %d of the CSV file has %d fields, the header %d", lineOf(cr), len(rec), len(header))
		}
		if err := p.add(rec); err != nil {
			return nil, err
		}
	}
	if lr.over() {
		return nil, ErrTooLarge()
	}
	if err := p.flush(); err != nil {
		return nil, err
	}
	out.Input = p.in
	return out, nil
}

func lineOf(cr *csv.Reader) int {
	line, _ := cr.FieldPos(0)
	return line
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return promotype.InvalidPayload("The CSV file cannot be read: line %d: %v", pe.Line, pe.Err)
	}
	return promotype.InvalidPayload("The CSV file cannot be read: %v", err)
}

// limitReader reads at most left bytes; over reports whether the input
// held more.
type limitReader struct {
	r    io.Reader
	left int64
}

func (l *limitReader) Read(b []byte) (int, error) {
	if l.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.r.Read(b)
	l.left -= int64(n)
	return n, err
}

func (l *limitReader) over() bool { return l.left <= 0 }

// keyedItems is Items for the items of a bulk update, each naming its
// record by source id (sourceID returns it): one without is refused.
func keyedItems[T any](items []T, sourceID func(T) *string) (Input, error) {
	for i, it := range items {
		if id := sourceID(it); id == nil || *id == "" {
			return Input{}, promotype.InvalidPayload("Property [%d].source_id is required", i)
		}
	}
	return updateItems(items)
}

// updateItems is Items for a bulk update, which, as the hosted service,
// takes no items too (what the SDKs send for an empty body): an action
// with no rows, DONE with nothing changed.
func updateItems[T any](items []T) (Input, error) {
	if len(items) == 0 {
		return Input{}, nil
	}
	return Items(items)
}

// Items returns the input of a JSON item list: each item as it was given.
func Items[T any](items []T) (Input, error) {
	if len(items) == 0 {
		return Input{}, promotype.InvalidPayload("Payload must NOT have fewer than 1 items")
	}
	if len(items) > MaxRows {
		return Input{}, promotype.InvalidPayload("Payload must NOT have more than %d items", MaxRows)
	}
	var p pager
	for _, it := range items {
		if err := p.add(it); err != nil {
			return Input{}, err
		}
	}
	if err := p.flush(); err != nil {
		return Input{}, err
	}
	return p.in, nil
}
