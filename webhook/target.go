package webhook

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"syscall"
)

// TargetPolicy decides which receiving addresses deliveries may reach.
// By default only public addresses: private, loopback, link-local and
// unspecified ones are refused, at configuration time (literal addresses)
// and again at connection time (names, so DNS cannot point a public name at
// an internal host).
type TargetPolicy struct {
	AllowLoopback bool // the standalone server allows it when asked by flag
	AllowPrivate  bool // private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) and link-local
}

// CheckURL checks a target_url: an absolute http(s) URL with a host, whose
// literal IP address (if it is one) the policy allows.
func (p TargetPolicy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return fmt.Errorf("must be an absolute http or https URL without credentials")
	}
	if addr, err := netip.ParseAddr(u.Hostname()); err == nil {
		return p.CheckAddr(addr)
	}
	if u.Hostname() == "localhost" && !p.AllowLoopback {
		return fmt.Errorf("must not point at a loopback address")
	}
	return nil
}

// CheckAddr checks one resolved address.
func (p TargetPolicy) CheckAddr(a netip.Addr) error {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		if !p.AllowLoopback {
			return fmt.Errorf("must not point at a loopback address")
		}
	case a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		if !p.AllowPrivate {
			return fmt.Errorf("must not point at a private address")
		}
	case a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast():
		return fmt.Errorf("must point at a unicast address")
	}
	return nil
}

// DialContext is a net.Dialer.DialContext that refuses addresses the policy
// does not allow, checked after name resolution.
func (p TargetPolicy) DialContext(d *net.Dialer) func(ctx context.Context, network, address string) (net.Conn, error) {
	guard := *d
	guard.Control = func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		return p.CheckAddr(ap.Addr())
	}
	return guard.DialContext
}
