package promotype

import (
	"errors"
	"fmt"
)

// Error is the one error type of promo. It has the shape of the hosted API's Error
// object and maps straight to HTTP: Code is the status, Key the error key.
// errors.Is matches two *Error values by Key, so callers test for kinds with
// the sentinels below (errors.Is(err, promotype.ErrNotFound)).
type Error struct {
	Code         int           `json:"code"`
	Key          string        `json:"key,omitempty"`
	Message      string        `json:"message"`
	Details      string        `json:"details,omitempty"`
	RequestID    string        `json:"request_id,omitempty"`
	ResourceID   string        `json:"resource_id,omitempty"`
	ResourceType string        `json:"resource_type,omitempty"`
	Err          *ErrorMessage `json:"error,omitempty"`
}

// ErrorMessage carries the text a user configured on a validation rule.
type ErrorMessage struct {
	Message string `json:"message"`
}

// Error implements error.
func (e *Error) Error() string {
	if e.Details != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Key, e.Message, e.Details)
	}
	return fmt.Sprintf("%s: %s", e.Key, e.Message)
}

// Is reports whether target is an *Error with the same Key.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Key == e.Key
}

// The statuses an Error carries: the HTTP status codes the API answers
// with, named here so that no domain package needs net/http.
const (
	StatusBadRequest          = 400
	StatusUnauthorized        = 401
	StatusForbidden           = 403
	StatusNotFound            = 404
	StatusConflict            = 409
	StatusTooManyRequests     = 429
	StatusInternalServerError = 500
	StatusServiceUnavailable  = 503
)

// Sentinels for errors.Is. They are never returned as they are.
var (
	ErrNotFound           = &Error{Code: StatusNotFound, Key: "not_found"}
	ErrInvalidPayload     = &Error{Code: StatusBadRequest, Key: "invalid_payload"}
	ErrInvalidQueryParams = &Error{Code: StatusBadRequest, Key: "invalid_query_params"}
	ErrUnauthorized       = &Error{Code: StatusUnauthorized, Key: "unauthorized"}
	ErrDuplicateFound     = &Error{Code: StatusConflict, Key: "duplicate_found"}
	ErrResourceProtected  = &Error{Code: StatusBadRequest, Key: "resource_protected"}
	ErrResourceInUse      = &Error{Code: StatusBadRequest, Key: "resource_in_use"}
	ErrInternal           = &Error{Code: StatusInternalServerError, Key: "internal_error"}
)

// NotFound is the 404 for a resource of type resourceType addressed by id (or
// by the name or source id the caller used).
func NotFound(resourceType, id string) *Error {
	return &Error{
		Code:         StatusNotFound,
		Key:          "not_found",
		Message:      "Resource not found",
		Details:      fmt.Sprintf("Cannot find %s with id %s", resourceType, id),
		ResourceID:   id,
		ResourceType: resourceType,
	}
}

// InvalidPayload is the 400 for a request body that breaks the schema; details
// follow the hosted service's JSON-schema wording ("Property .x must be ...").
func InvalidPayload(format string, args ...any) *Error {
	return &Error{Code: StatusBadRequest, Key: "invalid_payload", Message: "Invalid payload", Details: fmt.Sprintf(format, args...)}
}

// InvalidQueryParams is the 400 for a bad query string parameter.
func InvalidQueryParams(format string, args ...any) *Error {
	return &Error{Code: StatusBadRequest, Key: "invalid_query_params", Message: "Invalid query params", Details: fmt.Sprintf(format, args...)}
}

// Duplicate is the 409 for a second resource with a key that must be unique.
func Duplicate(resourceType, format string, args ...any) *Error {
	return &Error{Code: StatusConflict, Key: "duplicate_found", Message: "Duplicate resource found", Details: fmt.Sprintf(format, args...), ResourceType: resourceType}
}

// Unauthorized is the 401 for missing or wrong credentials, exactly as the hosted API shows it.
func Unauthorized() *Error {
	return &Error{Code: StatusUnauthorized, Key: "unauthorized", Message: "Unauthorized"}
}

// BadRequest is a 400 with the given key and message; details are
// format and args.
func BadRequest(key, message, format string, args ...any) *Error {
	return Newf(StatusBadRequest, key, message, format, args...)
}

// Conflict is a 409 with the given key and message; details are format
// and args.
func Conflict(key, message, format string, args ...any) *Error {
	return Newf(StatusConflict, key, message, format, args...)
}

// Forbidden is a 403 with the given key and message; details are format
// and args.
func Forbidden(key, message, format string, args ...any) *Error {
	return Newf(StatusForbidden, key, message, format, args...)
}

// Newf builds an error of any status and key.
func Newf(code int, key, message, format string, args ...any) *Error {
	return &Error{Code: code, Key: key, Message: message, Details: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error. A store failure a client may cure by
// retrying (Transient: a stalled, gone or restarting store, or a conflict
// past the retry budget) becomes a 503 service_unavailable; any other
// error a 500 internal_error. Neither exposes its cause (the caller logs
// err).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if Transient(err) {
		return ServiceUnavailable("The database did not answer in time or cannot be reached; retry later")
	}
	return &Error{Code: StatusInternalServerError, Key: "internal_error", Message: "Internal server error"}
}
