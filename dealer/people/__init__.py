"""People: users and their PINs, sign-ins and the lockout, the audit trail, registered
devices."""
