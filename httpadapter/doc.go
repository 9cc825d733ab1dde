// Package httpadapter serves a promo [promo.Engine] as the Voucherify-compatible
// REST API (v2018-08-01) described in the project's interface specification.
//
// [New] returns an [http.Handler] that can be mounted on any net/http mux:
//
//	eng, _ := promo.New(memory.New())
//	http.ListenAndServe(":8080", httpadapter.New(eng))
//
// The handler routes /v1/* (authenticated with the X-App-Id and X-App-Token
// key pair, or an OAuth token from POST /v1/oauth/token sent as
// "Authorization: Bearer <token>" whose scopes cover the path) and
// /management/v1/* (X-Management-Id and X-Management-Token) and
// /client/v1/* (X-Client-Application-Id and X-Client-Token from an allowed
// Origin, or a client_* OAuth token; CORS preflights answered). Bodies are JSON
// (form-encoded for /v1/oauth/*); responses are JSON with
// `Content-Type: application/json; charset=utf-8`. Every response carries an
// X-Request-Id header, repeated as request_id in error bodies. Errors are the
// hosted API's Error object with the HTTP status in `code`; an unexpected failure
// is a 500 internal_error whose cause is logged, never sent. A panic in a
// handler is recovered and answered with a 500.
//
// Beyond the hosted API, the adapter serves POST and DELETE /v1/locations and
// POST /management/v1/projects, so that a standalone server can be set up
// through its API.
package httpadapter
