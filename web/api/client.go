package api

import (
	"net/http"
	"net/netip"
	"strings"
)

// client names the client of a request for the per-client limit: the
// address the request came from, or, when that is a trusted proxy, the
// last address in X-Forwarded-For that is not a trusted proxy (the one
// the nearest trusted proxy saw; the entries left of it are the client's
// own word). IPv6 addresses count by their /64, which one host may hold.
func (s *Service) client(r *http.Request) string {
	addr, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr // not an IP (a test or a unix socket): as it is
	}
	ip := addr.Addr().Unmap()
	if s.trusted(ip) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break // a garbled entry: trust nothing left of it
			}
			ip = hop.Unmap()
			if !s.trusted(ip) {
				break
			}
		}
	}
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// trusted reports whether ip is one of the trusted proxies.
func (s *Service) trusted(ip netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ParseProxies reads a comma-separated list of addresses and CIDR
// prefixes ("10.0.0.1, 192.168.0.0/16, ::1") for Config.TrustedProxies.
func ParseProxies(text string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(text, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, err
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, err
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
