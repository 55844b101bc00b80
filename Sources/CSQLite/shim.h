#pragma once
#include <sqlite3.h>

static inline sqlite3_destructor_type passwright_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* Extended result codes are macros built with shifts, which Swift does not import. */
static inline int passwright_sqlite_constraint_unique(void) { return SQLITE_CONSTRAINT_UNIQUE; }
static inline int passwright_sqlite_constraint_primarykey(void) { return SQLITE_CONSTRAINT_PRIMARYKEY; }
