package server

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// keysFileVars are the variables a keys file holds, in the order written.
var keysFileVars = []string{envProjectID, envAppID, envAppToken, envMgmtID, envMgmtToken, envClientID, envClientToken}

// keyField returns the field of cfg that variable name sets.
func keyField(cfg *Config, name string) *string {
	switch name {
	case envProjectID:
		return &cfg.ProjectID
	case envAppID:
		return &cfg.AppID
	case envAppToken:
		return &cfg.AppToken
	case envMgmtID:
		return &cfg.MgmtID
	case envMgmtToken:
		return &cfg.MgmtToken
	case envClientID:
		return &cfg.ClientID
	case envClientToken:
		return &cfg.ClientToken
	}
	return nil
}

// readKeysFile fills the project and credentials cfg does not configure
// from cfg.KeysFile (NAME=value lines, as the banner prints them). A
// missing file is not an error: the first start writes it.
func readKeysFile(cfg Config) (Config, error) {
	f, err := os.Open(cfg.KeysFile)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", envKeysFile, err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		value, _, _ = strings.Cut(value, " ")
		p := keyField(&cfg, name)
		if !ok || p == nil {
			return cfg, fmt.Errorf("%s %s: unexpected line %q", envKeysFile, cfg.KeysFile, line)
		}
		if *p == "" {
			*p = value
		}
	}
	if err := sc.Err(); err != nil {
		return cfg, fmt.Errorf("%s: %w", envKeysFile, err)
	}
	return cfg, nil
}

// writeKeysFile writes the project and the credentials of s to path
// (mode 0600), through a temporary file renamed over it, so that a crash
// never leaves half a file. Values given set (the configuration, not the
// file) are left out: they stay where the operator keeps them.
func writeKeysFile(path string, s *setup, given Config) error {
	var b strings.Builder
	b.WriteString("# promo credentials: read at start by -keys-file (PROMO_KEYS_FILE)\n")
	values := map[string]string{envProjectID: s.ProjectID, envAppID: s.App.ID, envAppToken: s.App.Secret,
		envMgmtID: s.Management.ID, envMgmtToken: s.Management.Secret, envClientID: s.Client.ID, envClientToken: s.Client.Secret}
	for _, name := range keysFileVars {
		if values[name] != "" && *keyField(&given, name) == "" {
			fmt.Fprintf(&b, "%s=%s\n", name, values[name])
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".promo-keys-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", envKeysFile, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // after the rename: nothing left
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing %s: %w", envKeysFile, err)
	}
	if _, err := tmp.WriteString(b.String()); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing %s: %w", envKeysFile, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", envKeysFile, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", envKeysFile, err)
	}
	return nil
}
