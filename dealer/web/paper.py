"""Where a tablet's slips print: the cookie it keeps its choice in (the screens set it, the
documents read it)."""

#: The cookie a tablet keeps its slips' paper in.
PAPER_COOKIE = "dealer_slip_paper"
#: page: letter or A4 (REPORT_PAGE_SIZE); receipt: the table's 80 mm receipt printer.
PAPERS = ("page", "receipt")
