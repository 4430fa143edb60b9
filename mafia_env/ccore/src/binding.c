/* The C core of the mafia_env engine: the accelerated twin of mafia_env/engine.
 *
 * The Python engine (mafia_env/engine/game.py, turns.py) is the reference and the readable
 * statement of the rules; every function here mirrors one there, under the same name, and
 * plays the same game bit for bit: the same random draws (CPython's MT19937 seeded from an
 * int, getrandbits, _randbelow, shuffle, choice, randrange), the same events, the same
 * observation rows (mafia_env/observe.py VectorObserver, folded event by event as they are
 * logged) and the same masks (mafia_env/actions.py ActionLayout). tests/ccore/test_ccore.py and
 * scripts/diff_backends.py check it against the Python engine move by move.
 *
 * Everything about a variant comes from Python as a dict (mafia_env/ccore/__init__.py: the knobs as
 * ints, the base deal, the observation and action layouts' offsets): the layouts are decided
 * in Python only. A `Core` holds B games of one (rules, table size), each with its game's
 * random stream, a slot stream that seeds its next game (VectorMafia's), its observation
 * rows, and logs of its inputs and (optionally) its events.
 *
 * The engine is plain C; this binding uses only the CPython C API (no numpy headers):
 * arrays come in through the buffer protocol.
 */
/* The files, by concern (one compilation unit: this file includes the others, so the
 * compiler sees the whole core at once, as it did when it was one file).
 *
 * The engine, plain C over the structs of core.h and plain arrays (no CPython API):
 *   kinds.h     the rule constants, generated from the Python definitions (generate.py)
 *   rng.h       CPython's MT19937
 *   core.h      limits, the config, a game's state, its logs, the engine's errors
 *   observer.c  the observation rows, folded event by event (observe.py)
 *   rules.c     the queue, the engine and each turn's rule (game.py, turns.py), a game's start
 *   masks.c     the action masks and the observation views
 *   calls.c     a game's calls: starts, moves, the moderator's calls, talk, the queue
 *   pickle.c    copies and saved games
 *   batch.c     the batched step (VectorMafia)
 *   count.c     the belief piece of a counted table, from a game's log (seat_obs.LazyBelief)
 *
 * The binding, all the CPython glue (arguments, objects, buffers, errors):
 *   binding.c          this file: the Core type, its config, its lifetime, methods, module
 *   binding_calls.c    a game's calls: moves, observations, masks, facts, logs
 *   binding_pickle.c   copies and pickles
 *   binding_batch.c    the batched step's arrays
 *   binding_aec.c      the AEC env's calls (CoreEngine in backends.py): its arrays and masks
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

#include "observer.c"
#include "rules.c"
#include "masks.c"
#include "calls.c"
#include "pickle.c"
#include "batch.c"
#include "count.c"

/* ================================================================ the Python type */
typedef struct {
    PyObject_HEAD
    Config cfg;
    int num;
    int deal[MAXN], has_deal; /* the deal of every game (knob roles), or by the seed */
    Game *games;
    int bound;
    Py_buffer views[10]; /* the batched step's arrays (bind): obs, masks, ... done_teams */
    Batch arrays;        /* their memory */
    /* the AEC env's calls (aec_bind): its observation template, its masks' cache */
    int aec_bound;
    Py_buffer b_tmpl;
    PyObject *aec_copy, *aec_cache, *aec_make, *aec_no_mask;
    PyObject *aec_pool[AEC_POOL]; /* observations handed out: reused once nobody holds them */
    int aec_next;
} CoreObject;

static int get_int(PyObject *d, const char *key, int *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "core config lacks %s", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

static int get_double(PyObject *d, const char *key, double *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "core config lacks %s", key);
        return -1;
    }
    *out = PyFloat_AsDouble(v);
    return PyErr_Occurred() ? -1 : 0;
}

static int get_ints(PyObject *d, const char *key, int *out, int len, int *got) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "core config lacks %s", key);
        return -1;
    }
    PyObject *seq = PySequence_Fast(v, key);
    if (!seq) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (len >= 0 && m > len) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "core config %s has %zd items, at most %d", key, m, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)x;
    }
    if (got) *got = (int)m;
    Py_DECREF(seq);
    return 0;
}

#define INT(name) \
    if (get_int(d, #name, &c->name) < 0) return -1;

static int parse_config(Config *c, PyObject *d) {
    INT(n) INT(day_limit)
    CORE_KNOBS(INT)
    INT(heal_memory) INT(obs_size) INT(private_size) INT(elim_cols) INT(n_roles)
    INT(night_phase) INT(over_phase) INT(tonight_start) INT(tonight_end) INT(legacy_float)
    INT(action_size)
    if (c->n < 1 || c->n > MAXN) {
        PyErr_Format(PyExc_ValueError, "the C core plays tables of 1..%d seats; got %d", MAXN,
                     c->n);
        return -1;
    }
    if (c->action_size < 1 || c->action_size + 8 > MAXMASK) {
        PyErr_Format(PyExc_ValueError, "the C core plays action spaces of 1..%d; got %d",
                     MAXMASK - 8, c->action_size);
        return -1;
    }
    if (c->speech_acts < 1) {
        PyErr_SetString(PyExc_ValueError, "speech_acts must be >= 1");
        return -1;
    }
    int got;
    if (get_ints(d, "night_order", c->night_order, 8, &c->n_night_order) < 0) return -1;
    if (get_ints(d, "base_deal", c->base_deal, MAXN, &got) < 0) return -1;
    if (got != c->n) {
        PyErr_SetString(PyExc_ValueError, "base_deal must have one role a seat");
        return -1;
    }
    if (get_ints(d, "offsets", c->off, N_PIECES, &got) < 0) return -1;
    if (got != N_PIECES) {
        PyErr_SetString(PyExc_ValueError, "offsets must have one entry a piece");
        return -1;
    }
    for (int t = 0; t < N_TURNS; t++) c->turn_pos[t] = -1, c->speech_turn[t] = 0;
    if (get_ints(d, "role_index", c->role_index, N_ROLES, NULL) < 0) return -1;
    if (get_ints(d, "turn_pos", c->turn_pos, N_TURNS, NULL) < 0) return -1;
    if (get_ints(d, "speech_turn", c->speech_turn, N_TURNS, NULL) < 0) return -1;
    if (get_ints(d, "act_off", c->act_off, N_ACTS, NULL) < 0) return -1;
    if (get_ints(d, "act_width", c->act_width, N_ACTS, NULL) < 0) return -1;
    if (get_double(d, "named_scale", &c->named_scale) < 0) return -1;
    if (get_double(d, "self_heal_scale", &c->self_heal_scale) < 0) return -1;
    c->day_limit_f = (double)c->day_limit;
    c->public_size = c->obs_size - c->private_size;
    int A = c->action_size;
    c->dec_act = malloc(sizeof(int) * 3 * (size_t)A);
    if (!c->dec_act) {
        PyErr_NoMemory();
        return -1;
    }
    c->dec_target = c->dec_act + A;
    c->dec_value = c->dec_act + 2 * A;
    if (get_ints(d, "dec_act", c->dec_act, A, NULL) < 0) return -1;
    if (get_ints(d, "dec_target", c->dec_target, A, NULL) < 0) return -1;
    if (get_ints(d, "dec_value", c->dec_value, A, NULL) < 0) return -1;
    return 0;
}

static int read_deal(const Config *c, PyObject *deal, int *out) {
    if (deal == Py_None) return 0;
    int got;
    PyObject *d = PyDict_New();
    if (!d) return -1;
    if (PyDict_SetItemString(d, "deal", deal) < 0) {
        Py_DECREF(d);
        return -1;
    }
    int r = get_ints(d, "deal", out, MAXN, &got);
    Py_DECREF(d);
    if (r < 0) return -1;
    if (got != c->n) {
        PyErr_SetString(PyExc_ValueError, "a deal has one role a seat");
        return -1;
    }
    for (int s = 0; s < c->n; s++)
        if (out[s] < 0 || out[s] >= N_ROLES) {
            PyErr_SetString(PyExc_ValueError, "a deal's roles are Role values");
            return -1;
        }
    return 1;
}

static void release_buffers(CoreObject *self) {
    if (!self->bound) return;
    for (int i = 0; i < 10; i++) PyBuffer_Release(&self->views[i]);
    self->bound = 0;
}

static void aec_release(CoreObject *self);

static void Core_dealloc(CoreObject *self) {
    release_buffers(self);
    aec_release(self);
    games_free(self->games, self->num);
    free(self->cfg.dec_act);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Core_init(CoreObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"config", "num_games", "log_events", "deal", NULL};
    PyObject *d, *deal = Py_None;
    int num, log_events = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!i|pO", kwlist, &PyDict_Type, &d, &num,
                                     &log_events, &deal))
        return -1;
    if (self->games) {
        PyErr_SetString(PyExc_RuntimeError, "Core is initialised once");
        return -1;
    }
    if (num < 1) {
        PyErr_SetString(PyExc_ValueError, "num_games must be >= 1");
        return -1;
    }
    memset(&self->cfg, 0, sizeof(Config));
    if (parse_config(&self->cfg, d) < 0) return -1;
    self->has_deal = read_deal(&self->cfg, deal, self->deal);
    if (self->has_deal < 0) return -1;
    self->games = games_new(&self->cfg, num, log_events);
    if (!self->games) {
        PyErr_NoMemory();
        return -1;
    }
    self->num = num;
    return 0;
}


#include "binding_calls.c"
#include "binding_pickle.c"
#include "binding_batch.c"
#include "binding_aec.c"

static PyMethodDef Core_methods[] = {
    {"seed_slot", (PyCFunction)Core_seed_slot, METH_VARARGS, NULL},
    {"start", (PyCFunction)Core_start, METH_VARARGS, NULL},
    {"start_from_slot", (PyCFunction)Core_start_from_slot, METH_O, NULL},
    {"apply", (PyCFunction)(void (*)(void))Core_apply, METH_FASTCALL, NULL},
    {"play", (PyCFunction)(void (*)(void))Core_play, METH_FASTCALL, NULL},
    {"apply_action", (PyCFunction)Core_apply_action, METH_VARARGS, NULL},
    {"foul", (PyCFunction)Core_foul, METH_VARARGS, NULL},
    {"remove", (PyCFunction)Core_remove, METH_VARARGS, NULL},
    {"terminate", (PyCFunction)Core_terminate, METH_VARARGS, NULL},
    {"say", (PyCFunction)Core_say, METH_VARARGS, NULL},
    {"observe", (PyCFunction)(void (*)(void))Core_observe, METH_FASTCALL, NULL},
    {"observe_turn", (PyCFunction)Core_observe_turn, METH_VARARGS, NULL},
    {"mask", (PyCFunction)Core_mask, METH_O, NULL},
    {"private_rows", (PyCFunction)Core_private_rows, METH_VARARGS, NULL},
    {"live", (PyCFunction)Core_live, METH_O, NULL},
    {"mask_for", (PyCFunction)Core_mask_for, METH_VARARGS, NULL},
    {"pending_round", (PyCFunction)Core_pending_round, METH_O, NULL},
    {"queue", (PyCFunction)Core_queue, METH_O, NULL},
    {"default_action", (PyCFunction)Core_default_action, METH_O, NULL},
    {"status", (PyCFunction)Core_status, METH_O, NULL},
    {"actor", (PyCFunction)Core_actor, METH_O, NULL},
    {"facts", (PyCFunction)Core_facts, METH_O, NULL},
    {"deal", (PyCFunction)Core_deal, METH_O, NULL},
    {"inputs", (PyCFunction)Core_inputs, METH_VARARGS, NULL},
    {"events", (PyCFunction)Core_events, METH_VARARGS, NULL},
    {"last_marks", (PyCFunction)Core_last_marks, METH_VARARGS, NULL},
    {"count_pieces", (PyCFunction)Core_count_pieces, METH_VARARGS, NULL},
    {"get_state", (PyCFunction)Core_get_state, METH_O, NULL},
    {"set_state", (PyCFunction)Core_set_state, METH_VARARGS, NULL},
    {"copy_game", (PyCFunction)Core_copy_game, METH_VARARGS, NULL},
    {"fork", (PyCFunction)Core_fork, METH_O, NULL},
    {"bind", (PyCFunction)Core_bind, METH_VARARGS, NULL},
    {"reset_all", (PyCFunction)Core_reset_all, METH_NOARGS, NULL},
    {"step_all", (PyCFunction)Core_step_all, METH_O, NULL},
    {"memory", (PyCFunction)Core_memory, METH_NOARGS, NULL},
    {"random_state", (PyCFunction)Core_random_state, METH_VARARGS, NULL},
    {"aec_bind", (PyCFunction)Core_aec_bind, METH_VARARGS, NULL},
    {"aec_observe", (PyCFunction)(void (*)(void))Core_aec_observe, METH_FASTCALL, NULL},
    {"aec_obs_dict", (PyCFunction)(void (*)(void))Core_aec_obs_dict, METH_FASTCALL, NULL},
    {"aec_mask", (PyCFunction)Core_aec_mask, METH_O, NULL},
    {"aec_play", (PyCFunction)(void (*)(void))Core_aec_play, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

static PyObject *Core_get_num(CoreObject *self, void *closure) {
    return PyLong_FromLong(self->num);
}

static PyGetSetDef Core_getset[] = {{"num_games", (getter)Core_get_num, NULL, NULL, NULL},
                                    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mafia_env.ccore._ccore.Core",
    .tp_doc = "B games of one variant and table size, played by the C core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* mt_check(words, draws) -> [getrandbits(32) x draws]: for the tests of the seeding */
static PyObject *mt_check(PyObject *mod, PyObject *args) {
    PyObject *words;
    int draws;
    if (!PyArg_ParseTuple(args, "Oi", &words, &draws)) return NULL;
    uint32_t *key;
    Py_ssize_t len;
    if (read_key(words, &key, &len) < 0) return NULL;
    MT mt;
    mt_init_by_array(&mt, key, (size_t)len);
    PyMem_Free(key);
    PyObject *out = PyList_New(draws);
    if (!out) return NULL;
    for (int i = 0; i < draws; i++) PyList_SET_ITEM(out, i, PyLong_FromUnsignedLong(mt_next(&mt)));
    return out;
}

static PyMethodDef module_methods[] = {{"mt_check", mt_check, METH_VARARGS, NULL},
                                       {NULL, NULL, 0, NULL}};

#ifndef CCORE_SOURCE
#define CCORE_SOURCE "" /* built without setup.py: mafia_env.ccore cannot tell a stale build */
#endif

static struct PyModuleDef ccore_module = {PyModuleDef_HEAD_INIT, "_ccore",
                                          "The C core of the mafia_env engine.", -1,
                                          module_methods};

/* CONSTANTS {name: value} and TABLES {name: tuple} of kinds.h, for the test that they are the
   Python engine's */
static int add_constants(PyObject *m) {
    PyObject *consts = PyDict_New(), *tables = PyDict_New();
    if (!consts || !tables) goto fail;
    for (int i = 0; CCORE_CONSTANTS[i].name; i++) {
        PyObject *v = PyLong_FromLong(CCORE_CONSTANTS[i].value);
        if (!v || PyDict_SetItemString(consts, CCORE_CONSTANTS[i].name, v) < 0) {
            Py_XDECREF(v);
            goto fail;
        }
        Py_DECREF(v);
    }
    for (int i = 0; CCORE_TABLES[i].name; i++) {
        PyObject *t = PyTuple_New(CCORE_TABLES[i].len);
        if (!t) goto fail;
        for (int k = 0; k < CCORE_TABLES[i].len; k++)
            PyTuple_SET_ITEM(t, k, PyLong_FromLong(CCORE_TABLES[i].values[k]));
        if (PyDict_SetItemString(tables, CCORE_TABLES[i].name, t) < 0) {
            Py_DECREF(t);
            goto fail;
        }
        Py_DECREF(t);
    }
    if (PyModule_AddObject(m, "CONSTANTS", consts) < 0) goto fail;
    consts = NULL;
    if (PyModule_AddObject(m, "TABLES", tables) < 0) goto fail;
    return 0;
fail:
    Py_XDECREF(consts);
    Py_XDECREF(tables);
    return -1;
}

PyMODINIT_FUNC PyInit__ccore(void) {
    init_expand();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&ccore_module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MAXN", MAXN);
    PyModule_AddIntConstant(m, "STATE_VERSION", STATE_VERSION);
    PyModule_AddIntConstant(m, "N_PIECES", N_PIECES);
    PyModule_AddStringConstant(m, "SOURCE", CCORE_SOURCE);
    if (add_constants(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
