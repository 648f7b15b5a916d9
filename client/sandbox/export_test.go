package sandbox

// Hooks for this package's tests that reach into the state directly. They are not part of the
// product: other packages' tests use the sandboxtest package, which goes through the API.

// MintToken creates a token in space ("" = primary org) owned by ownerEmail with the given scopes.
// The owner is created as a non-admin user of that org when absent.
func (s *Server) MintToken(space, ownerEmail string, scopes ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.st.Orgs[space]
	if o == nil {
		o = newOrg(space)
		s.st.Orgs[space] = o
	}
	if o.userByEmail(ownerEmail) == nil {
		o.addUser(ownerEmail, "Test", "Owner", false, true, fixedTime())
	}
	return o.mint("test token", nil, ownerEmail, scopes, s.opts.Now()).Value
}

// SetSpaceAdmin makes email an admin (or not) of space, creating the user there when absent.
func (s *Server) SetSpaceAdmin(space, email string, admin bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.st.Orgs[space]
	if o == nil {
		o = newOrg(space)
		s.st.Orgs[space] = o
	}
	u := o.userByEmail(email)
	if u == nil {
		u = o.addUser(email, "Space", "Member", admin, true, fixedTime())
	}
	u["is_admin"] = admin
}
