/* ------------------------------------------------------------- copies and pickles */
/* A game copied whole, into another slot, a new core or bytes (binding_pickle.c hands them
   to Python). A saved game is a header {STATE_VERSION, n, obs_size, action_size} (int32), the
   Game struct (its pointers zeroed), its observation rows, then its logs. */

/* dst's logs: fresh copies of src's (dst's own not freed); -1 where memory ran out */
static int copy_logs(Game *dst, const Game *src) {
    dst->events = NULL;
    dst->seq = NULL;
    dst->inputs = NULL;
    dst->cap_events = dst->n_events;
    dst->cap_seq = dst->n_seq;
    dst->cap_inputs = dst->n_inputs;
    if (src->n_events) {
        dst->events = malloc(sizeof(Event) * (size_t)src->n_events);
        if (!dst->events) return -1;
        memcpy(dst->events, src->events, sizeof(Event) * (size_t)src->n_events);
    }
    if (src->n_seq) {
        dst->seq = malloc((size_t)src->n_seq);
        if (!dst->seq) return -1;
        memcpy(dst->seq, src->seq, (size_t)src->n_seq);
    }
    if (src->n_inputs) {
        dst->inputs = malloc(sizeof(Input) * (size_t)src->n_inputs);
        if (!dst->inputs) return -1;
        memcpy(dst->inputs, src->inputs, sizeof(Input) * (size_t)src->n_inputs);
    }
    return 0;
}

static int same_config(const Config *a, const Config *b) {
    return a->n == b->n && a->obs_size == b->obs_size && a->action_size == b->action_size &&
           a->private_size == b->private_size;
}

/* game g becomes a copy of src (of a config like c) */
static CoreErr game_copy(const Config *c, Game *g, const Game *src) {
    if (g == src) return CORE_OK;
    float *obs = g->obs;
    game_free_logs(g);
    *g = *src;
    g->obs = obs;
    memcpy(obs, src->obs, sizeof(float) * obs_floats(c));
    if (copy_logs(g, src) < 0) {
        game_free_logs(g);
        return CORE_ERR_MEMORY;
    }
    return CORE_OK;
}

/* dst (zeroed, fresh) becomes a copy of config src: its action table copied */
static CoreErr config_copy(Config *dst, const Config *src) {
    *dst = *src;
    int A = src->action_size;
    dst->dec_act = malloc(sizeof(int) * 3 * (size_t)A);
    if (!dst->dec_act) return CORE_ERR_MEMORY;
    memcpy(dst->dec_act, src->dec_act, sizeof(int) * 3 * (size_t)A);
    dst->dec_target = dst->dec_act + A;
    dst->dec_value = dst->dec_act + 2 * A;
    return CORE_OK;
}

/* g (fresh, zeroed) becomes a copy of src with rows and logs of its own */
static CoreErr game_clone(const Config *c, Game *g, const Game *src) {
    *g = *src;
    g->events = NULL;
    g->seq = NULL;
    g->inputs = NULL;
    g->obs = malloc(sizeof(float) * obs_floats(c));
    if (!g->obs || copy_logs(g, src) < 0) return CORE_ERR_MEMORY;
    memcpy(g->obs, src->obs, sizeof(float) * obs_floats(c));
    return CORE_OK;
}

/* the bytes of game g saved */
static size_t game_state_size(const Config *c, const Game *g) {
    return 4 * sizeof(int32_t) + sizeof(Game) + sizeof(float) * obs_floats(c) +
           sizeof(Event) * (size_t)g->n_events + (size_t)g->n_seq +
           sizeof(Input) * (size_t)g->n_inputs;
}

/* game g saved into p (game_state_size bytes) */
static void game_save(const Config *c, const Game *g, char *p) {
    size_t fl = obs_floats(c);
    int32_t head[4] = {STATE_VERSION, c->n, c->obs_size, c->action_size};
    memcpy(p, head, sizeof(head));
    p += sizeof(head);
    Game copy = *g;
    copy.events = NULL;
    copy.seq = NULL;
    copy.inputs = NULL;
    copy.obs = NULL;
    memcpy(p, &copy, sizeof(Game));
    p += sizeof(Game);
    memcpy(p, g->obs, sizeof(float) * fl);
    p += sizeof(float) * fl;
    if (g->n_events) memcpy(p, g->events, sizeof(Event) * (size_t)g->n_events);
    p += sizeof(Event) * (size_t)g->n_events;
    if (g->n_seq) memcpy(p, g->seq, (size_t)g->n_seq);
    p += g->n_seq;
    if (g->n_inputs) memcpy(p, g->inputs, sizeof(Input) * (size_t)g->n_inputs);
}

/* game g becomes the game saved in the `len` bytes at p (game_save's) */
static CoreErr game_load(const Config *c, Game *g, const char *p, size_t len) {
    size_t fl = obs_floats(c);
    int32_t head[4];
    Game src;
    if (len < sizeof(head) + sizeof(Game) + sizeof(float) * fl) return CORE_ERR_STATE;
    memcpy(head, p, sizeof(head));
    if (head[0] != STATE_VERSION || head[1] != c->n || head[2] != c->obs_size ||
        head[3] != c->action_size)
        return CORE_ERR_STATE;
    p += sizeof(head);
    memcpy(&src, p, sizeof(Game));
    p += sizeof(Game);
    if (src.n_events < 0 || src.n_seq < 0 || src.n_inputs < 0) return CORE_ERR_STATE;
    size_t want = sizeof(head) + sizeof(Game) + sizeof(float) * fl +
                  sizeof(Event) * (size_t)src.n_events + (size_t)src.n_seq +
                  sizeof(Input) * (size_t)src.n_inputs;
    if (len != want) return CORE_ERR_STATE;
    float *obs = g->obs;
    game_free_logs(g);
    *g = src;
    g->obs = obs;
    memcpy(obs, p, sizeof(float) * fl);
    p += sizeof(float) * fl;
    Game from = src;
    from.events = (Event *)p;
    p += sizeof(Event) * (size_t)src.n_events;
    from.seq = (int8_t *)p;
    p += src.n_seq;
    from.inputs = (Input *)p;
    if (copy_logs(g, &from) < 0) {
        game_free_logs(g);
        return CORE_ERR_MEMORY;
    }
    return CORE_OK;
}

/* the bytes held by num games, their rows and their logs */
static size_t games_memory(const Config *c, const Game *games, int num) {
    size_t total = sizeof(Game) * (size_t)num;
    for (int b = 0; b < num; b++) {
        const Game *g = &games[b];
        total += sizeof(float) * obs_floats(c) + sizeof(Event) * (size_t)g->cap_events +
                 (size_t)g->cap_seq + sizeof(Input) * (size_t)g->cap_inputs;
    }
    return total;
}
