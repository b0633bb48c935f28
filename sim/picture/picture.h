/*
 * picture.h — where collsim's pictures are drawn: a cairo context on a PNG, SVG or PDF file,
 * chosen by the file's extension.
 *
 * Invariants: the same drawing gives the same bytes (the PDF's dates are fixed, nothing from
 * the wall clock or the environment enters a file); a picture is written to FILE.tmp and
 * renamed over FILE only once complete, so a failed drawing leaves any previous FILE as it
 * was. picture_check() answers, before a simulation spends any time, everything that can be
 * known about the path: its extension and whether its directory takes a new file.
 */
#ifndef COLLSIM_SIM_PICTURE_H
#define COLLSIM_SIM_PICTURE_H

#include "sim/picture/cairo_api.h"
#include <glib.h>

enum picture_format { PICTURE_PNG, PICTURE_SVG, PICTURE_PDF };

#define PICTURE_ERROR picture_error_quark()
GQuark picture_error_quark(void);
enum { PICTURE_ERROR_FORMAT, PICTURE_ERROR_PATH, PICTURE_ERROR_SIZE, PICTURE_ERROR_WRITE };

/* The format of `path` by its extension (.png, .svg, .pdf, any case); FALSE and an error
 * naming the path and the three extensions otherwise. */
gboolean picture_format_of(const char *path, enum picture_format *format, GError **error);

/* The extension is known and a file can be created next to `path` (tried, then removed);
 * `option` names what asked for the picture in the message ("--timeline"). */
gboolean picture_check(const char *path, const char *option, GError **error);

struct picture;

/* A picture of width x height points (pixels for PNG), white background. NULL and an error if
 * the extension is unknown or the size is not between 1 and PICTURE_MAX_SIDE. */
#define PICTURE_MAX_SIDE 32000.0
struct picture *picture_begin(const char *path, double width, double height, GError **error);
/* Where to draw. */
cairo_t *picture_cairo(struct picture *picture);
/* Write the file (FILE.tmp, then renamed); frees the picture either way. */
gboolean picture_end(struct picture *picture, GError **error);
/* Give up a picture: nothing is written. */
void picture_abandon(struct picture *picture);

/* `text` placed by its ink box: the point (ax, ay) of the box, in fractions of its width and
 * height, lands on (x, y): (0, 0) top-left, (0.5, 0.5) centred, (1, 0.5) right, mid-height. */
void picture_text(cairo_t *cr, double x, double y, double ax, double ay, const char *text);

/* A duration in seconds as a short label with a unit: "0", "250 ns", "1.5 µs", "12 ms", "3 s". */
gchar *picture_seconds_label(double seconds);

#endif
