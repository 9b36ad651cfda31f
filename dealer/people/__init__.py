"""People: users and their PINs, sign-ins and the lockout, who may act where, the
audit trail, registered devices."""
