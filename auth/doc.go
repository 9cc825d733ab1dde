// Package auth holds credentials: application key pairs (X-App-Id and
// X-App-Token) that resolve a project, and management key pairs
// (X-Management-Id and X-Management-Token) granted to projects. Secrets are
// stored only as SHA-256 hashes and compared in constant time.
package auth
