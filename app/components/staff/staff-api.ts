/** The staff area's home: the inbox. */
export const STAFF_HOME = "/admin/booking-requests";
