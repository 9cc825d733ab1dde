package campaign

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promo/promotype"
)

// ValidityTimeframe is a recurring validity window: the resource is valid for
// Duration, every Interval, counted from its start_date (ISO 8601 durations,
// e.g. interval P2D and duration PT1H: one hour every other day).
type ValidityTimeframe struct {
	Interval string `json:"interval"`
	Duration string `json:"duration"`
}

// ValidityHours holds daily periods of validity ("happy hours").
type ValidityHours struct {
	Daily []DailyHours `json:"daily"`
}

// DailyHours is one daily period: from StartTime to ExpirationTime ("HH:mm",
// in the project's time zone) on the given days of the week (0 = Sunday).
type DailyHours struct {
	StartTime      string `json:"start_time"`
	ExpirationTime string `json:"expiration_time"`
	DaysOfWeek     []int  `json:"days_of_week"`
}

// Validity are the validity fields a campaign, a voucher and a promotion
// tier share. The dates are always present in responses, null when not set;
// the recurring windows are omitted when not set, as the hosted service
// answers a campaign (its OpenAPI declares them non-nullable).
type Validity struct {
	StartDate         *promotype.Time    `json:"start_date"`
	ExpirationDate    *promotype.Time    `json:"expiration_date"`
	ValidityTimeframe *ValidityTimeframe `json:"validity_timeframe,omitempty"`
	ValidityDayOfWeek []int              `json:"validity_day_of_week,omitempty"`
	ValidityHours     *ValidityHours     `json:"validity_hours,omitempty"`
}

// ValidityParams are the validity fields of a create or update body. Absent
// (or null) fields are left unchanged on update.
type ValidityParams struct {
	StartDate         *promotype.Time    `json:"start_date"`
	ExpirationDate    *promotype.Time    `json:"expiration_date"`
	ValidityTimeframe *ValidityTimeframe `json:"validity_timeframe"`
	ValidityDayOfWeek []int              `json:"validity_day_of_week"`
	ValidityHours     *ValidityHours     `json:"validity_hours"`
}

// Clone returns a deep copy.
func (v Validity) Clone() Validity {
	c := v
	c.StartDate = promotype.ClonePtr(v.StartDate)
	c.ExpirationDate = promotype.ClonePtr(v.ExpirationDate)
	c.ValidityTimeframe = promotype.ClonePtr(v.ValidityTimeframe)
	c.ValidityDayOfWeek = slices.Clone(v.ValidityDayOfWeek)
	c.ValidityHours = v.ValidityHours.Clone()
	return c
}

// Clone returns a deep copy (nil for nil).
func (h *ValidityHours) Clone() *ValidityHours {
	if h == nil {
		return nil
	}
	c := &ValidityHours{Daily: make([]DailyHours, len(h.Daily))}
	for i, d := range h.Daily {
		d.DaysOfWeek = slices.Clone(d.DaysOfWeek)
		c.Daily[i] = d
	}
	if h.Daily == nil {
		c.Daily = nil
	}
	return c
}

// InZone reads a start_date or expiration_date given as a date alone
// ("2026-01-02") as that whole day in loc: the start at its first instant,
// the expiration at its last millisecond, as the hosted service does.
// Dates with a time are left as they are.
func (p *ValidityParams) InZone(loc *time.Location) {
	if p.StartDate != nil {
		p.StartDate = promotype.DayStart(*p.StartDate, loc).Ptr()
	}
	if p.ExpirationDate != nil {
		p.ExpirationDate = promotype.DayEnd(*p.ExpirationDate, loc).Ptr()
	}
}

// LocalizeValidity reads the dates of p given alone in the time zone of
// the project (env.Location; see InZone). It reads the project only when
// there is such a date; call it outside transactions.
func LocalizeValidity(ctx context.Context, env promotype.Env, projectID string, p *ValidityParams) error {
	if (p.StartDate == nil || !p.StartDate.IsDateOnly()) && (p.ExpirationDate == nil || !p.ExpirationDate.IsDateOnly()) {
		return nil
	}
	loc, err := env.ProjectLocation(ctx, projectID)
	if err != nil {
		return err
	}
	p.InZone(loc)
	return nil
}

// ValidityFields are the JSON names of the validity fields an update clears
// with null, on campaigns and vouchers alike.
var ValidityFields = []string{"start_date", "expiration_date", "validity_timeframe", "validity_day_of_week", "validity_hours"}

// Clear removes the validity field of JSON name field (one of
// ValidityFields; another name changes nothing).
func (v *Validity) Clear(field string) {
	switch field {
	case "start_date":
		v.StartDate = nil
	case "expiration_date":
		v.ExpirationDate = nil
	case "validity_timeframe":
		v.ValidityTimeframe = nil
	case "validity_day_of_week":
		v.ValidityDayOfWeek = nil
	case "validity_hours":
		v.ValidityHours = nil
	}
}

// CheckClear refuses a name of names that is not one of ValidityFields, and
// a field both cleared and given a value in p (only possible through the Go
// API).
func (p ValidityParams) CheckClear(names []string) error {
	return checkCleared(names, p.given())
}

// given reports, per name of ValidityFields, whether p gives that field.
func (p ValidityParams) given() map[string]bool {
	return map[string]bool{"start_date": p.StartDate != nil, "expiration_date": p.ExpirationDate != nil,
		"validity_timeframe": p.ValidityTimeframe != nil, "validity_day_of_week": p.ValidityDayOfWeek != nil,
		"validity_hours": p.ValidityHours != nil}
}

// Apply copies the fields given in p onto v.
func (p ValidityParams) Apply(v *Validity) {
	if p.StartDate != nil {
		v.StartDate = promotype.ClonePtr(p.StartDate)
	}
	if p.ExpirationDate != nil {
		v.ExpirationDate = promotype.ClonePtr(p.ExpirationDate)
	}
	if p.ValidityTimeframe != nil {
		v.ValidityTimeframe = promotype.ClonePtr(p.ValidityTimeframe)
	}
	if p.ValidityDayOfWeek != nil {
		v.ValidityDayOfWeek = slices.Clone(p.ValidityDayOfWeek)
	}
	if p.ValidityHours != nil {
		v.ValidityHours = p.ValidityHours.Clone()
	}
}

// Check validates p on its own (the formats of its fields); CheckValidity
// then validates the merged result.
func (p ValidityParams) Check() error {
	if tf := p.ValidityTimeframe; tf != nil {
		if _, err := ParseDuration(tf.Interval); err != nil {
			return promotype.InvalidPayload("Property .validity_timeframe.interval must be an ISO 8601 duration (e.g. P2D): %v", err)
		}
		if _, err := ParseDuration(tf.Duration); err != nil {
			return promotype.InvalidPayload("Property .validity_timeframe.duration must be an ISO 8601 duration (e.g. PT1H): %v", err)
		}
	}
	for i, d := range p.ValidityDayOfWeek {
		if d < 0 || d > 6 {
			return promotype.InvalidPayload("Property .validity_day_of_week[%d] must be between 0 (Sunday) and 6 (Saturday)", i)
		}
	}
	if h := p.ValidityHours; h != nil {
		if err := h.check(); err != nil {
			return err
		}
	}
	return nil
}

// CheckValidity validates a merged set of validity fields: the expiration
// date is after the start date and a timeframe has a start date to count from.
func CheckValidity(v Validity) error {
	if v.StartDate != nil && v.ExpirationDate != nil && !v.ExpirationDate.After(v.StartDate.Time) {
		return promotype.InvalidPayload("Property .expiration_date must be later than .start_date")
	}
	if v.ValidityTimeframe != nil && v.StartDate == nil {
		return promotype.InvalidPayload("Property .validity_timeframe requires .start_date")
	}
	return nil
}

func (h *ValidityHours) check() error {
	type span struct{ from, to int }
	byDay := map[int][]span{}
	for i, d := range h.Daily {
		from, err := parseClock(d.StartTime)
		if err != nil {
			return promotype.InvalidPayload("Property .validity_hours.daily[%d].start_time must be a time in the HH:mm format", i)
		}
		to, err := parseClock(d.ExpirationTime)
		if err != nil {
			return promotype.InvalidPayload("Property .validity_hours.daily[%d].expiration_time must be a time in the HH:mm format", i)
		}
		if to <= from {
			return promotype.InvalidPayload("Property .validity_hours.daily[%d].expiration_time must be later than its start_time", i)
		}
		if len(d.DaysOfWeek) == 0 {
			return promotype.InvalidPayload("Property .validity_hours.daily[%d] must have required property 'days_of_week'", i)
		}
		for j, day := range d.DaysOfWeek {
			if day < 0 || day > 6 {
				return promotype.InvalidPayload("Property .validity_hours.daily[%d].days_of_week[%d] must be between 0 (Sunday) and 6 (Saturday)", i, j)
			}
			for _, s := range byDay[day] {
				if from < s.to && s.from < to {
					return promotype.InvalidPayload("Property .validity_hours.daily[%d] overlaps another period on day %d: periods must not overlap", i, day)
				}
			}
			byDay[day] = append(byDay[day], span{from, to})
		}
	}
	return nil
}

// parseClock reads "HH:mm" as minutes after midnight.
func parseClock(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) != 2 || len(m) != 2 {
		return 0, strconv.ErrSyntax
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, strconv.ErrSyntax
	}
	return hh*60 + mm, nil
}

// Duration is an ISO 8601 duration (PnYnMnWnDTnHnMnS), kept by part: months
// and days vary in length, so they are not converted to seconds.
type Duration struct {
	Years, Months, Weeks, Days, Hours, Minutes, Seconds int
}

// ParseDuration parses an ISO 8601 duration with integer parts, such as
// P2D, PT1H, P1Y2M3DT4H5M6S or P3W. At least one part must be given and
// the whole must not be zero.
func ParseDuration(s string) (Duration, error) {
	var d Duration
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return d, strconv.ErrSyntax
	}
	inTime, seen := false, false
	for rest != "" {
		if rest[0] == 'T' {
			if inTime || len(rest) == 1 {
				return d, strconv.ErrSyntax
			}
			inTime, rest = true, rest[1:]
			continue
		}
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i == len(rest) || i > 9 {
			return d, strconv.ErrSyntax
		}
		n, _ := strconv.Atoi(rest[:i])
		var dst *int
		switch unit := rest[i]; {
		case !inTime && unit == 'Y':
			dst = &d.Years
		case !inTime && unit == 'M':
			dst = &d.Months
		case !inTime && unit == 'W':
			dst = &d.Weeks
		case !inTime && unit == 'D':
			dst = &d.Days
		case inTime && unit == 'H':
			dst = &d.Hours
		case inTime && unit == 'M':
			dst = &d.Minutes
		case inTime && unit == 'S':
			dst = &d.Seconds
		default:
			return d, strconv.ErrSyntax
		}
		if *dst != 0 {
			return d, strconv.ErrSyntax // a part given twice
		}
		*dst, seen = n, true
		rest = rest[i+1:]
	}
	if !seen || d == (Duration{}) {
		return d, strconv.ErrSyntax
	}
	return d, nil
}
