package loyalty

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Int is a whole number of points or units. JSON may give it as a number
// or as a numeric string ("5"), as the hosted service's own examples send
// points; it is always answered as a number.
type Int int64

// UnmarshalJSON reads a whole number or a string holding one.
func (n *Int) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		b = []byte(s)
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", b)
	}
	*n = Int(v)
	return nil
}

// MaxPoints bounds the points of a rule, a ratio and one change of a
// card, so that no sum of them overflows.
const MaxPoints = 1 << 40
