/*
 * trace_write.h — the recorder's record (recorder.h) as a file for the viewers people already
 * use: FILE.json in the Chrome/Perfetto trace-event format (ui.perfetto.dev, chrome://tracing),
 * FILE.paje in the Paje format (ViTE).
 *
 * Invariants: the same record gives the same bytes; a trace is written to FILE.tmp and renamed
 * over FILE once complete, so a failed write leaves any previous FILE as it was;
 * trace_check() says before a run everything that can be known about the path.
 */
#ifndef COLLSIM_SIM_TRACE_WRITE_H
#define COLLSIM_SIM_TRACE_WRITE_H

#include <glib.h>

enum trace_format { TRACE_JSON, TRACE_PAJE };

#define TRACE_ERROR trace_error_quark()
GQuark trace_error_quark(void);
enum { TRACE_ERROR_FORMAT, TRACE_ERROR_PATH, TRACE_ERROR_WRITE };

/* The format by the extension (.json, .paje, any case); an error naming both otherwise. */
gboolean trace_format_of(const char *path, enum trace_format *format, GError **error);
/* The extension is known and a file can be created next to `path` (tried, then removed);
 * `option` names what asked for it ("--trace"). */
gboolean trace_check(const char *path, const char *option, GError **error);
/* Write the recorder's record to `path` in the format of its extension. */
gboolean trace_write(const char *path, GError **error);

/* The texts, for tests and other writers. */
gchar *trace_json_text(void);
gchar *trace_paje_text(void);

#endif
