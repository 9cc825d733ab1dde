package promo

import (
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

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

// Types of the project and key APIs, re-exported for convenience.
type (
	// Project is an isolated tenant of the engine.
	Project = project.Project
	// ProjectParams is the body of a project create.
	ProjectParams = project.Params
	// Credentials are a key pair in clear text, shown once.
	Credentials = auth.Credentials
	// KeyParams fixes a key pair's id and secret; empty fields are generated.
	KeyParams = auth.KeyParams
	// ManagementKey is a management key pair and its granted projects.
	ManagementKey = auth.ManagementKey
)
