/*
 * cairo_api.h — cairo, loaded the first time something is drawn.
 *
 * libcollsim is not linked with libcairo: cairo brings some twenty libraries (pixman,
 * fontconfig, freetype, libpng, X11 and xcb), about 6 ms of every process start on the
 * reference machine, a quarter of a 64-rank run, while few runs draw. Code that draws includes
 * this header (through picture.h) and calls cairo as usual: each cairo function it uses is
 * defined below as the entry of a table that cairo_api() fills from libcairo.so.2 at the
 * first call. A function not in CAIRO_API_FUNCTIONS is called directly, and needs libcairo
 * linked (the unit tests that read pictures back do).
 */
#ifndef COLLSIM_PICTURE_CAIRO_API_H
#define COLLSIM_PICTURE_CAIRO_API_H

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

#define CAIRO_API_FUNCTIONS(X) \
    X(arc) \
    X(clip) \
    X(create) \
    X(destroy) \
    X(fill) \
    X(fill_preserve) \
    X(image_surface_create) \
    X(line_to) \
    X(move_to) \
    X(new_path) \
    X(new_sub_path) \
    X(paint) \
    X(pdf_surface_create_for_stream) \
    X(pdf_surface_set_metadata) \
    X(recording_surface_create) \
    X(recording_surface_get_extents) \
    X(rectangle) \
    X(restore) \
    X(rotate) \
    X(save) \
    X(select_font_face) \
    X(set_dash) \
    X(set_font_size) \
    X(set_line_width) \
    X(set_source_rgb) \
    X(set_source_rgba) \
    X(set_source_surface) \
    X(show_text) \
    X(status) \
    X(status_to_string) \
    X(stroke) \
    X(surface_destroy) \
    X(surface_finish) \
    X(surface_flush) \
    X(surface_status) \
    X(surface_write_to_png_stream) \
    X(svg_surface_create_for_stream) \
    X(text_extents) \
    X(translate)

struct cairo_api {
#define CAIRO_API_MEMBER(name) __typeof__(cairo_##name) *name;
    CAIRO_API_FUNCTIONS(CAIRO_API_MEMBER)
#undef CAIRO_API_MEMBER
};

/* The table, loading libcairo at the first call. When it cannot be loaded, says so on stderr
 * and exits with status 2. */
const struct cairo_api *cairo_api(void);

#ifndef CAIRO_API_LOADER
#define cairo_arc (cairo_api()->arc)
#define cairo_clip (cairo_api()->clip)
#define cairo_create (cairo_api()->create)
#define cairo_destroy (cairo_api()->destroy)
#define cairo_fill (cairo_api()->fill)
#define cairo_fill_preserve (cairo_api()->fill_preserve)
#define cairo_image_surface_create (cairo_api()->image_surface_create)
#define cairo_line_to (cairo_api()->line_to)
#define cairo_move_to (cairo_api()->move_to)
#define cairo_new_path (cairo_api()->new_path)
#define cairo_new_sub_path (cairo_api()->new_sub_path)
#define cairo_paint (cairo_api()->paint)
#define cairo_pdf_surface_create_for_stream (cairo_api()->pdf_surface_create_for_stream)
#define cairo_pdf_surface_set_metadata (cairo_api()->pdf_surface_set_metadata)
#define cairo_recording_surface_create (cairo_api()->recording_surface_create)
#define cairo_recording_surface_get_extents (cairo_api()->recording_surface_get_extents)
#define cairo_rectangle (cairo_api()->rectangle)
#define cairo_restore (cairo_api()->restore)
#define cairo_rotate (cairo_api()->rotate)
#define cairo_save (cairo_api()->save)
#define cairo_select_font_face (cairo_api()->select_font_face)
#define cairo_set_dash (cairo_api()->set_dash)
#define cairo_set_font_size (cairo_api()->set_font_size)
#define cairo_set_line_width (cairo_api()->set_line_width)
#define cairo_set_source_rgb (cairo_api()->set_source_rgb)
#define cairo_set_source_rgba (cairo_api()->set_source_rgba)
#define cairo_set_source_surface (cairo_api()->set_source_surface)
#define cairo_show_text (cairo_api()->show_text)
#define cairo_status (cairo_api()->status)
#define cairo_status_to_string (cairo_api()->status_to_string)
#define cairo_stroke (cairo_api()->stroke)
#define cairo_surface_destroy (cairo_api()->surface_destroy)
#define cairo_surface_finish (cairo_api()->surface_finish)
#define cairo_surface_flush (cairo_api()->surface_flush)
#define cairo_surface_status (cairo_api()->surface_status)
#define cairo_surface_write_to_png_stream (cairo_api()->surface_write_to_png_stream)
#define cairo_svg_surface_create_for_stream (cairo_api()->svg_surface_create_for_stream)
#define cairo_text_extents (cairo_api()->text_extents)
#define cairo_translate (cairo_api()->translate)
#endif

G_END_DECLS

#endif
