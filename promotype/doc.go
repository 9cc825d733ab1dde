// Package promotype is the leaf kernel of promo: the types every other package
// shares. It holds the one error type ([Error]), [Metadata], list envelopes and
// query parameters ([List], [ListParams], [Filter]), the injectable [Clock] and
// [IDGenerator], and the millisecond [Time] used on the wire.
//
// It imports only the standard library, so any package may depend on it.
package promotype
