/*
 * picture.c — cairo surfaces on files by extension, written whole or not at all (picture.h).
 */
#include "config.h"

#include "sim/picture/picture.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

G_DEFINE_QUARK(collsim - picture - error - quark, picture_error)

struct picture {
    enum picture_format format;
    gchar *path;
    gchar *tmp_path;
    cairo_surface_t *surface;
    cairo_t *cr;
};

gboolean
picture_format_of(const char *path, enum picture_format *format, GError **error)
{
    static const struct {
        const char *suffix;
        enum picture_format format;
    } known[] = {{".png", PICTURE_PNG}, {".svg", PICTURE_SVG}, {".pdf", PICTURE_PDF}};
    gsize len = strlen(path);
    for (gsize i = 0; i < G_N_ELEMENTS(known); i++) {
        gsize n = strlen(known[i].suffix);
        if (len > n && g_ascii_strcasecmp(path + len - n, known[i].suffix) == 0) {
            *format = known[i].format;
            return TRUE;
        }
    }
    g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_FORMAT,
                "%s: unknown picture format (the file name must end in .png, .svg or .pdf)", path);
    return FALSE;
}

gboolean
picture_check(const char *path, const char *option, GError **error)
{
    enum picture_format format;
    GError *why = NULL;
    if (!picture_format_of(path, &format, &why)) {
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_FORMAT, "%s %s", option, why->message);
        g_error_free(why);
        return FALSE;
    }
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_PATH, "%s %s: is a directory", option,
                    path);
        return FALSE;
    }
    /* the picture will be written beside its final name, then renamed: try exactly that */
    g_autofree gchar *probe = g_strconcat(path, ".tmp", NULL);
    FILE *f = g_fopen(probe, "wb");
    if (f == NULL) {
        int err = errno;
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_PATH, "%s %s: cannot be written (%s)",
                    option, path, g_strerror(err));
        return FALSE;
    }
    fclose(f);
    g_unlink(probe);
    return TRUE;
}

static cairo_status_t
write_to_file(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                      : CAIRO_STATUS_WRITE_ERROR;
}

struct picture *
picture_begin(const char *path, double width, double height, GError **error)
{
    enum picture_format format;
    if (!picture_format_of(path, &format, error))
        return NULL;
    if (!(width >= 1 && width <= PICTURE_MAX_SIDE && height >= 1 && height <= PICTURE_MAX_SIDE)) {
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_SIZE,
                    "%s: a picture of %.0f x %.0f is beyond what can be drawn (at most %.0f a "
                    "side)",
                    path, width, height, PICTURE_MAX_SIDE);
        return NULL;
    }
    struct picture *p = g_new0(struct picture, 1);
    p->format = format;
    p->path = g_strdup(path);
    p->tmp_path = g_strconcat(path, ".tmp", NULL);
    switch (format) {
    case PICTURE_PNG:
        p->surface =
            cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(width), (int)ceil(height));
        break;
    case PICTURE_SVG:
    case PICTURE_PDF:
        /* a stream surface writes as it goes: keep the file for the end, record meanwhile */
        p->surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA,
                                                    &(cairo_rectangle_t){0, 0, width, height});
        break;
    }
    p->cr = cairo_create(p->surface);
    cairo_set_source_rgb(p->cr, 1, 1, 1);
    cairo_paint(p->cr);
    cairo_set_source_rgb(p->cr, 0, 0, 0);
    /* the same look on every machine that has a sans-serif font */
    cairo_select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(p->cr, 11);
    if (cairo_status(p->cr) != CAIRO_STATUS_SUCCESS) {
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_WRITE, "%s: %s", path,
                    cairo_status_to_string(cairo_status(p->cr)));
        picture_abandon(p);
        return NULL;
    }
    return p;
}

cairo_t *
picture_cairo(struct picture *picture)
{
    return picture->cr;
}

void
picture_abandon(struct picture *picture)
{
    if (picture == NULL)
        return;
    cairo_destroy(picture->cr);
    cairo_surface_destroy(picture->surface);
    g_free(picture->path);
    g_free(picture->tmp_path);
    g_free(picture);
}

/* Replay the recording onto a vector surface that streams into `f`. */
static cairo_status_t
replay_vector(struct picture *p, FILE *f)
{
    cairo_rectangle_t extents;
    cairo_recording_surface_get_extents(p->surface, &extents);
    cairo_surface_t *target;
    if (p->format == PICTURE_SVG) {
        target =
            cairo_svg_surface_create_for_stream(write_to_file, f, extents.width, extents.height);
    } else {
        target =
            cairo_pdf_surface_create_for_stream(write_to_file, f, extents.width, extents.height);
        /* fixed dates: the same drawing gives the same bytes */
        cairo_pdf_surface_set_metadata(target, CAIRO_PDF_METADATA_CREATE_DATE,
                                       "2000-01-01T00:00:00Z");
        cairo_pdf_surface_set_metadata(target, CAIRO_PDF_METADATA_MOD_DATE, "2000-01-01T00:00:00Z");
        cairo_pdf_surface_set_metadata(target, CAIRO_PDF_METADATA_CREATOR, "collsim");
    }
    cairo_t *cr = cairo_create(target);
    cairo_set_source_surface(cr, p->surface, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_finish(target);
    cairo_status_t status = cairo_surface_status(target);
    cairo_surface_destroy(target);
    return status;
}

gboolean
picture_end(struct picture *picture, GError **error)
{
    struct picture *p = picture;
    cairo_status_t status = cairo_status(p->cr);
    FILE *f = status == CAIRO_STATUS_SUCCESS ? g_fopen(p->tmp_path, "wb") : NULL;
    int open_errno = errno;
    if (f != NULL) {
        if (p->format == PICTURE_PNG) {
            cairo_surface_flush(p->surface);
            status = cairo_surface_write_to_png_stream(p->surface, write_to_file, f);
        } else {
            status = replay_vector(p, f);
        }
        if (fclose(f) != 0 && status == CAIRO_STATUS_SUCCESS)
            status = CAIRO_STATUS_WRITE_ERROR;
    }
    gboolean ok = FALSE;
    if (status != CAIRO_STATUS_SUCCESS)
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_WRITE, "%s: %s", p->path,
                    cairo_status_to_string(status));
    else if (f == NULL)
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_WRITE, "%s: cannot be written (%s)",
                    p->tmp_path, g_strerror(open_errno));
    else if (g_rename(p->tmp_path, p->path) != 0)
        g_set_error(error, PICTURE_ERROR, PICTURE_ERROR_WRITE, "%s: cannot be renamed to %s (%s)",
                    p->tmp_path, p->path, g_strerror(errno));
    else
        ok = TRUE;
    if (!ok && f != NULL)
        g_unlink(p->tmp_path);
    picture_abandon(p);
    return ok;
}

void
picture_text(cairo_t *cr, double x, double y, double ax, double ay, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_move_to(cr, x - e.x_bearing - ax * e.width, y - e.y_bearing - ay * e.height);
    cairo_show_text(cr, text);
}

gchar *
picture_seconds_label(double seconds)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
    if (seconds == 0)
        return g_strdup("0");
    double mag = fabs(seconds);
    for (gsize i = 0; i < G_N_ELEMENTS(units); i++) {
        if (mag >= units[i].scale || i + 1 == G_N_ELEMENTS(units)) {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(buf, sizeof buf, "%.3g", seconds / units[i].scale);
            return g_strdup_printf("%s %s", buf, units[i].unit);
        }
    }
    g_assert_not_reached();
}
