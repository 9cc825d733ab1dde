// Package auth holds credentials and what they may do:
//
//   - application key pairs (X-App-Id and X-App-Token) that resolve a
//     project, and management key pairs (X-Management-Id and
//     X-Management-Token) granted to projects (key.go, service.go);
//   - OAuth 2.0 client-credentials tokens issued to an app key pair, with
//     introspection and revocation (token.go, oauth.go);
//   - the scope table: ParseScope for the token request and the pure
//     Allows(scopes, method, path) that every bearer request is checked
//     with (scope.go);
//   - an in-process cache of verified keys and tokens, kept true to the
//     store by its invalidation feed (cache.go, Store.WatchCredentials).
//
// Secrets and tokens are stored only as SHA-256 hashes and compared in
// constant time. A token is looked up by its hash, so the store's index
// never sees a token; the timing of that lookup can reveal at most a part
// of a hash, which does not help to find a token.
package auth
