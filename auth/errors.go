package auth

import (
	"strings"

	"github.com/promoengine/promo/promotype"
)

// Error kinds of the OAuth endpoints, for errors.Is.
var (
	ErrInvalidScope              = &promotype.Error{Code: promotype.StatusBadRequest, Key: "invalid_scope"}
	ErrInvalidGrantType          = &promotype.Error{Code: promotype.StatusBadRequest, Key: "invalid_grant_type"}
	ErrMissingParameters         = &promotype.Error{Code: promotype.StatusBadRequest, Key: "missing_parameters"}
	ErrTokenLimitExceeded        = &promotype.Error{Code: promotype.StatusBadRequest, Key: "token_limit_exceeded"}
	ErrMissingRequiredPermission = &promotype.Error{Code: promotype.StatusForbidden, Key: "missing_required_permission"}
)

// InvalidScope is the 400 of a scope value that is not accepted; the message
// names it as the hosted service does ("Invalid scope: vouchers,campaigns").
func InvalidScope(value string) *promotype.Error {
	return &promotype.Error{Code: promotype.StatusBadRequest, Key: "invalid_scope", Message: "Invalid scope: " + value,
		Details: "Separate scope values with spaces; each must be one of: " + strings.Join(scopeNames[:], ", ")}
}

// InvalidGrantType is the 400 of a grant_type other than client_credentials.
func InvalidGrantType() *promotype.Error {
	return promotype.BadRequest("invalid_grant_type", "Invalid grant_type",
		"Property grant_type must be client_credentials")
}

// MissingParameters is the 400 of a request without a required parameter.
func MissingParameters(name string) *promotype.Error {
	return promotype.BadRequest("missing_parameters", "Missing parameters",
		"Property %s is required", name)
}

// TokenLimitExceeded is the 400 of a token request for a project that holds
// max live tokens already.
func TokenLimitExceeded(max int) *promotype.Error {
	return promotype.BadRequest("token_limit_exceeded", "Token limit exceeded",
		"A project may hold at most %d live OAuth tokens; revoke one or wait until one expires", max)
}

// MissingRequiredPermission is the 403 of a valid token whose scopes do not
// cover the request.
func MissingRequiredPermission(method, path string) *promotype.Error {
	return promotype.Forbidden("missing_required_permission", "Missing required permission",
		"The scopes of the access token do not cover %s %s", method, path)
}
