/* The daemon's log: one line per event on stderr (journald keeps it),
 * with a level, as text or JSON (--log-format, --log-level).
 *
 *   d_log(D_LOG_INFO, "job_accepted", "id=%s key=%s partitions=%d", id, key, n);
 *
 * The format is a list of name=conversion fields, one conversion each,
 * separated by single spaces: each value is formatted on its own, so a
 * value may hold spaces (an error message) and JSON gets one member per
 * field, a number for a numeric conversion.  Text:
 *
 *   g16d: info job_accepted id=3f... key=chain partitions=4
 *
 * with a value quoted when it holds a space, a quote or an '='.  A line
 * is written with one write(2) so lines of several threads never mix. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "d.h"

#define LINE_MAX_BYTES 4096

/* Set at startup and by a reload (SIGHUP) while other threads log:
 * atomic, so a line reads one value of each. */
static _Atomic int g_json = 0, g_min = D_LOG_INFO;

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const k_level[] = {"debug", "info", "notice", "warning", "error"};

int d_log_parse_level(const char *s, d_log_level *out)
{
    for (int i = 0; i <= D_LOG_ERR; i++)
        if (!strcmp(s, k_level[i])) {
            *out = (d_log_level)i;
            return 0;
        }
    return -1;
}

void d_log_setup(int json, d_log_level min)
{
    g_json = json;
    g_min = (int)min;
}

/* One field's value, formatted from its conversion (spec: "%...X"),
 * taking its argument from ap; *numeric for an integer or real. */
static void field_value(const char *spec, size_t n, va_list *ap, char *out, size_t outlen,
                        int *numeric)
{
    char f[32];
    snprintf(f, sizeof f, "%.*s", (int)(n < sizeof f - 1 ? n : sizeof f - 1), spec);
    char conv = spec[n - 1];
    int longs = 0, size_t_ = strchr(f, 'z') != NULL;
    for (const char *c = f; *c; c++) longs += *c == 'l';
    *numeric = conv != 's' && conv != 'c' && conv != 'p';
    if (conv == 's')
        snprintf(out, outlen, f, va_arg(*ap, const char *));
    else if (conv == 'f' || conv == 'g' || conv == 'e')
        snprintf(out, outlen, f, va_arg(*ap, double));
    else if (size_t_)
        snprintf(out, outlen, f, va_arg(*ap, size_t));
    else if (longs >= 2)
        snprintf(out, outlen, f, va_arg(*ap, long long));
    else if (longs == 1)
        snprintf(out, outlen, f, va_arg(*ap, long));
    else
        snprintf(out, outlen, f, va_arg(*ap, int));
}

/* The length of the conversion at s ("%" up to its letter). */
static size_t conv_len(const char *s)
{
    size_t n = 1;
    while (s[n] && !strchr("sdiufgecpx", s[n])) n++;
    return s[n] ? n + 1 : n;
}

static void text_field(char *line, size_t *len, const char *name, size_t nlen, const char *v)
{
    int quote = !v[0] || strpbrk(v, " \"=") != NULL;
    size_t room = LINE_MAX_BYTES - *len;
    int w = snprintf(line + *len, room, " %.*s=%s", (int)nlen, name, quote ? "\"" : "");
    *len += w > 0 && (size_t)w < room ? (size_t)w : 0;
    for (const char *c = v; *c && *len + 3 < LINE_MAX_BYTES; c++) {
        if (*c == '"' || *c == '\\') line[(*len)++] = '\\';
        line[(*len)++] = *c == '\n' ? ' ' : *c;
    }
    if (quote && *len + 1 < LINE_MAX_BYTES) line[(*len)++] = '"';
    line[*len] = 0;
}

static void emit(d_log_level lvl, const char *event, json_t *o, char *line, size_t len)
{
    if (g_json) {
        json_t *head =
            json_pack("{s:f,s:s,s:s}", "ts", wall_now(), "level", k_level[lvl], "event", event);
        json_object_update(head, o);
        char *s = json_dumps(head, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
        json_decref(head);
        if (!s) return;
        size_t n = strlen(s);
        s[n] = '\n'; /* json_dumps's NUL becomes the newline */
        (void)!write(STDERR_FILENO, s, n + 1);
        free(s);
        return;
    }
    if (len + 1 < LINE_MAX_BYTES) line[len++] = '\n';
    (void)!write(STDERR_FILENO, line, len);
}

void d_log(d_log_level lvl, const char *event, const char *fmt, ...)
{
    if ((int)lvl < g_min) return;
    char line[LINE_MAX_BYTES + 1], v[LINE_MAX_BYTES];
    int w = snprintf(line, sizeof line, "g16d: %s %s", k_level[lvl], event);
    size_t len = w > 0 && w < LINE_MAX_BYTES ? (size_t)w : 0;
    json_t *o = json_object();
    va_list ap;
    va_start(ap, fmt);
    for (const char *f = fmt; *f;) {
        const char *eq = strchr(f, '='), *pct = eq ? eq + 1 : NULL;
        if (!eq || *pct != '%') break; /* not name=%conv: the rest is no field */
        size_t n = conv_len(pct);
        int numeric;
        field_value(pct, n, &ap, v, sizeof v, &numeric);
        text_field(line, &len, f, (size_t)(eq - f), v);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(eq - f), f);
        json_object_set_new(o, name,
                            numeric ? json_loads(v, JSON_DECODE_ANY, NULL) : json_string(v));
        if (!json_object_get(o, name)) json_object_set_new(o, name, json_string(v));
        f = pct + n;
        if (*f && *f != ' ') break; /* one conversion a field: the rest would misread */
        while (*f == ' ') f++;
    }
    va_end(ap);
    emit(lvl, event, o, line, len);
    json_decref(o);
}
