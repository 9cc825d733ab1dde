package bunstore

import (
	"time"

	"github.com/promoengine/promo/promotype"
)

// Timestamps are timestamptz columns; promotype.Time is UTC with millisecond
// precision, which timestamptz (microseconds) holds exactly.

func sqlTime(t promotype.Time) time.Time { return t.UTC() }

func sqlTimePtr(t *promotype.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC()
	return &v
}

func domainTime(t time.Time) promotype.Time { return promotype.NewTime(t) }

func domainTimePtr(t *time.Time) *promotype.Time {
	if t == nil {
		return nil
	}
	return promotype.NewTime(*t).Ptr()
}
