package promo

import "github.com/promoengine/promo/promotype"

// Kernel types, re-exported so that most users import only promo.
type (
	// Error is the one error type; see promotype.Error.
	Error = promotype.Error
	// Metadata is a resource's custom key/value pairs.
	Metadata = promotype.Metadata
	// ListParams are the paging, order and filter parameters of a list call.
	ListParams = promotype.ListParams
	// Time is a millisecond UTC timestamp.
	Time = promotype.Time
)

// List is a page of results.
type List[T any] = promotype.List[T]

// Error kinds for errors.Is.
var (
	ErrNotFound           = promotype.ErrNotFound
	ErrInvalidPayload     = promotype.ErrInvalidPayload
	ErrInvalidQueryParams = promotype.ErrInvalidQueryParams
	ErrUnauthorized       = promotype.ErrUnauthorized
	ErrDuplicateFound     = promotype.ErrDuplicateFound
)

// Ptr returns a pointer to a copy of v, for optional fields of params.
func Ptr[T any](v T) *T { return &v }
