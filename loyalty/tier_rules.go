package loyalty

import (
	"encoding/json"
	"regexp"
	"strconv"
	"time"

	"github.com/promoengine/promo/promotype"
)

// Tier qualification types, periods, start and expiration types of a
// program's loyalty_tiers_expiration.
const (
	QualifyBalance        = "BALANCE"
	QualifyPointsInPeriod = "POINTS_IN_PERIOD"

	PeriodMonth    = "MONTH"
	PeriodQuarter  = "QUARTER"
	PeriodHalfYear = "HALF_YEAR"
	PeriodYear     = "YEAR"

	TierStartImmediate  = "IMMEDIATE"
	TierStartNextPeriod = "NEXT_PERIOD"

	TierEndOfPeriod     = "END_OF_PERIOD"
	TierEndOfNextPeriod = "END_OF_NEXT_PERIOD"
	TierBalanceDrop     = "BALANCE_DROP"
	TierCustom          = "CUSTOM"
)

// TiersExpiration is how a program's members hold its tiers (the
// program's loyalty_tiers_expiration):
//
//   - BALANCE (the default): a member holds the tier whose range holds
//     their balance. With expiration BALANCE_DROP (the default) they lose
//     it as soon as the balance leaves the range; with CUSTOM they keep it
//     for Extend from the day they reached it (rounded as Rounding says),
//     whatever the balance does meanwhile.
//   - POINTS_IN_PERIOD: a member holds the tier whose range holds the
//     points they collected in the current calendar period
//     (QualificationPeriod), from the day they reach it (IMMEDIATE) or from
//     the next period (NEXT_PERIOD), until the end of that period
//     (END_OF_PERIOD) or of the next one (END_OF_NEXT_PERIOD), plus
//     Extend.
//
// A member reaching a higher tier moves up at once. When a hold ends the
// member's tier is computed again (the same tier again is a prolongation).
type TiersExpiration struct {
	QualificationType   string          `json:"qualification_type"`
	QualificationPeriod string          `json:"qualification_period"`
	StartDate           TierStart       `json:"start_date"`
	ExpirationDate      TierExpirations `json:"expiration_date"`
}

// TierStart says when a tier reached counts.
type TierStart struct {
	Type string `json:"type"`
}

// TierExpirations says when a tier held ends.
type TierExpirations struct {
	Type     string        `json:"type"`
	Extend   string        `json:"extend,omitempty"`
	Rounding *TierRounding `json:"rounding,omitempty"`
}

// TierRounding moves a CUSTOM expiry to the start or the end of the month,
// quarter, half year or year that holds it, or of the month Value (0 is
// January) next on or after it (CUSTOM).
type TierRounding struct {
	Type     string `json:"type"`
	Strategy string `json:"strategy"`
	Unit     string `json:"unit,omitempty"`
	Value    *int   `json:"value,omitempty"`
}

// ParseTiersExpiration reads a program's loyalty_tiers_expiration (raw
// JSON, empty or null for the default: BALANCE, dropped with the balance)
// and checks its values.
func ParseTiersExpiration(raw json.RawMessage) (*TiersExpiration, error) {
	x := &TiersExpiration{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, x); err != nil {
			return nil, promotype.InvalidPayload("Property .loyalty_tiers_expiration is invalid: %s", err)
		}
	}
	if x.QualificationType == "" {
		x.QualificationType = QualifyBalance
	}
	if x.StartDate.Type == "" {
		x.StartDate.Type = TierStartImmediate
	}
	if x.ExpirationDate.Type == "" {
		x.ExpirationDate.Type = TierBalanceDrop
		if x.QualificationType == QualifyPointsInPeriod {
			x.ExpirationDate.Type = TierEndOfPeriod
		}
	}
	bad := func(field, value string) error {
		return promotype.InvalidPayload("Property .loyalty_tiers_expiration.%s has an unknown value %q", field, value)
	}
	switch x.QualificationType {
	case QualifyBalance:
	case QualifyPointsInPeriod:
		if _, ok := periodMonths[x.QualificationPeriod]; !ok {
			return nil, bad("qualification_period", x.QualificationPeriod)
		}
	default:
		return nil, bad("qualification_type", x.QualificationType)
	}
	switch x.StartDate.Type {
	case TierStartImmediate, TierStartNextPeriod:
	default:
		return nil, bad("start_date.type", x.StartDate.Type)
	}
	switch x.ExpirationDate.Type {
	case TierBalanceDrop, TierCustom:
	case TierEndOfPeriod, TierEndOfNextPeriod:
		if x.QualificationType != QualifyPointsInPeriod {
			return nil, promotype.InvalidPayload("Property .loyalty_tiers_expiration.expiration_date.type %s needs qualification_type POINTS_IN_PERIOD", x.ExpirationDate.Type)
		}
	default:
		return nil, bad("expiration_date.type", x.ExpirationDate.Type)
	}
	if x.ExpirationDate.Extend != "" {
		if _, err := parseExtend(x.ExpirationDate.Extend); err != nil {
			return nil, err
		}
	}
	if r := x.ExpirationDate.Rounding; r != nil {
		if _, ok := periodMonths[r.Type]; !ok && r.Type != TierCustom {
			return nil, bad("expiration_date.rounding.type", r.Type)
		}
		if r.Strategy != "START" && r.Strategy != "END" {
			return nil, bad("expiration_date.rounding.strategy", r.Strategy)
		}
		if r.Type == TierCustom && (r.Value == nil || *r.Value < 0 || *r.Value > 11) {
			return nil, promotype.InvalidPayload("Property .loyalty_tiers_expiration.expiration_date.rounding.value must be a month from 0 to 11")
		}
	}
	return x, nil
}

// periodMonths is the length in months of each calendar period.
var periodMonths = map[string]int{PeriodMonth: 1, PeriodQuarter: 3, PeriodHalfYear: 6, PeriodYear: 12}

// extend is an ISO 8601 duration in years, months and days.
type extend struct{ years, months, days int }

var extendPattern = regexp.MustCompile(`^P(?:(\d{1,4})Y)?(?:(\d{1,4})M)?(?:(\d{1,4})W)?(?:(\d{1,5})D)?$`)

// parseExtend reads an ISO 8601 duration of years, months, weeks and days
// ("P3M", "P7D", "P1Y2M").
func parseExtend(s string) (extend, error) {
	m := extendPattern.FindStringSubmatch(s)
	if m == nil || s == "P" {
		return extend{}, promotype.InvalidPayload("Property .loyalty_tiers_expiration.expiration_date.extend must be an ISO 8601 duration of years, months, weeks or days, like P3M")
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	return extend{years: n(1), months: n(2), days: 7*n(3) + n(4)}, nil
}

// after is day d (a civil date) plus e, clamped to a shorter month's end.
func (e extend) after(d time.Time) time.Time {
	t := addMonthsClamped(d.Year(), d.Month(), d.Day(), 12*e.years+e.months)
	return t.AddDate(0, 0, e.days)
}

// periodStart is the first day of the calendar period of months months
// that holds day d.
func periodStart(d time.Time, months int) time.Time {
	m := (int(d.Month())-1)/months*months + 1
	return civil(d.Year(), time.Month(m), 1)
}

// periodEnd is the last day of that period.
func periodEnd(d time.Time, months int) time.Time {
	return periodStart(d, months).AddDate(0, months, -1)
}

// hold is a tier held: its tier, the first day it counts and the last
// (nil: as long as what qualifies for it stays in its range).
type hold struct {
	tier  *Tier
	start time.Time
	end   *time.Time
}

// holdFrom is the hold of tier t reached on day today (a civil date).
func (x *TiersExpiration) holdFrom(t *Tier, today time.Time) hold {
	h := hold{tier: t, start: today}
	months := periodMonths[x.QualificationPeriod]
	if x.startsNextPeriod() {
		h.start = periodEnd(today, months).AddDate(0, 0, 1)
	}
	var end time.Time
	switch x.ExpirationDate.Type {
	case TierBalanceDrop:
		return h
	case TierEndOfPeriod:
		end = periodEnd(h.start, months)
	case TierEndOfNextPeriod:
		end = periodEnd(periodEnd(h.start, months).AddDate(0, 0, 1), months)
	case TierCustom:
		end = h.start
	}
	if x.ExpirationDate.Extend != "" {
		e, _ := parseExtend(x.ExpirationDate.Extend)
		end = e.after(end)
	}
	if r := x.ExpirationDate.Rounding; r != nil && x.ExpirationDate.Type == TierCustom {
		end = r.round(end)
	}
	h.end = &end
	return h
}

// startsNextPeriod reports whether a tier counts from the period after it
// was reached (NEXT_PERIOD), so that a hold's end cannot be computed again
// from its start.
func (x *TiersExpiration) startsNextPeriod() bool {
	return x.QualificationType == QualifyPointsInPeriod && x.StartDate.Type == TierStartNextPeriod
}

// round moves day d as the rounding says.
func (r *TierRounding) round(d time.Time) time.Time {
	if r.Type == TierCustom {
		target := time.Month(*r.Value + 1)
		y := d.Year()
		if d.Month() > target {
			y++
		}
		if r.Strategy == "START" {
			return civil(y, target, 1)
		}
		return civil(y, target, lastDay(y, target))
	}
	months := periodMonths[r.Type]
	if r.Strategy == "START" {
		return periodStart(d, months)
	}
	return periodEnd(d, months)
}

// Tier changes, as the customer's activity names them
// (customer.loyalty.tier.<change>).
const (
	TierJoined     = "joined"
	TierLeft       = "left"
	TierUpgraded   = "upgraded"
	TierDowngraded = "downgraded"
	TierProlonged  = "prolonged"
)

// nextHold is what a member holding cur (nil: no tier) holds on day today
// when value qualifies them (their balance, or the points collected in the
// current period), among tiers, and the change it is ("": none). A hold
// whose end has passed (ended) is computed again from value.
func (x *TiersExpiration) nextHold(tiers []*Tier, cur *hold, value int64, today time.Time) (*hold, string) {
	target := highestHolding(tiers, value)
	ended := cur != nil && cur.end != nil && today.After(*cur.end)
	switch {
	case cur == nil && target == nil:
		return nil, ""
	case cur == nil:
		h := x.holdFrom(target, today)
		return &h, TierJoined
	case target != nil && target.ID == cur.tier.ID:
		if !ended {
			return cur, ""
		}
		h := x.holdFrom(target, today)
		return &h, TierProlonged
	case target != nil && rank(target) > rank(cur.tier):
		h := x.holdFrom(target, today)
		return &h, TierUpgraded
	case cur.end != nil && !ended:
		return cur, "" // held until its end whatever the value does meanwhile
	case target == nil:
		return nil, TierLeft
	}
	h := x.holdFrom(target, today)
	return &h, TierDowngraded
}

// highestHolding is the tier among tiers whose range holds value with the
// highest lower end; nil for none (below every range, or in a gap).
func highestHolding(tiers []*Tier, value int64) *Tier {
	var held *Tier
	for _, t := range tiers {
		if t.holds(value) && (held == nil || rank(t) > rank(held)) {
			held = t
		}
	}
	return held
}

// rank orders tiers by their range's lower end.
func rank(t *Tier) int64 { return deref64(t.Points.From) }
