/* The rule constants of the C core, generated from the Python engine's definitions by
 * mafia_env/ccore/generate.py (mafia_env/ccore/schema.py): do not edit. setup.py
 * writes it again before each build. */
#ifndef MAFIA_CCORE_KINDS_H
#define MAFIA_CCORE_KINDS_H

/* seats: sequence codes hold 5 bits a seat, bitmasks 32 (events.SEQ_BITS) */
#define MAXN 30
#define PUBLIC (-1) /* seen_by of a public event (events.PUBLIC) */

/* Turn (mafia_env.engine.kinds) */
enum { T_SPEECH = 0, T_LAST_WORD = 1, T_TIE_SPEECH = 2, T_VOTE = 3, T_CRASH_VOTE = 4,
    T_MAFIA_KILL = 5, T_DON_CHECK = 6, T_SHERIFF_CHECK = 7, T_PUTANA = 8, T_DOCTOR = 9,
    T_MANIAC = 10, T_EXECUTOR = 11, T_HUNT = 12, T_NAMING = 13, T_MONOLOGUE = 14, T_ANSWER = 15,
    T_OPEN_VOTE = 16, T_MEETING = 17, T_DISCUSSION = 18, T_GESTURE = 19, N_TURNS = 20 };

/* Act (mafia_env.engine.kinds) */
enum { A_PASS = 0, A_NOMINATE = 1, A_VOTE = 2, A_NIGHT = 3, A_CLAIM_ROLE = 4, A_CLAIM_CHECK = 5,
    A_ACCUSE = 6, A_VOUCH = 7, A_VOTE_YES = 8, A_VOTE_NO = 9, A_ASK = 10, A_ANSWER = 11,
    A_REVEAL_DON = 12, A_EXECUTOR = 13, A_HUNT = 14, N_ACTS = 15 };

/* Stage (mafia_env.engine.kinds) */
enum { S_DAWN = 0, S_SPEECHES = 1, S_NAMING = 2, S_MONOLOGUES = 3, S_VOTE = 4, S_TIE_SPEECHES = 5,
    S_CRASH = 6, S_LAST_WORDS = 7, S_NIGHT = 8, S_OVER = 9, S_ZERO_NIGHT = 10, S_COUNT = 11,
    S_DISCUSSION = 12 };

/* Call (mafia_env.engine.kinds) */
enum { CALL_FOUL = -1, CALL_TERMINATE = -2, CALL_REMOVE = -3 };

/* Ev (mafia_env.engine.events) */
enum { E_ROLE = 0, E_TEAMMATE = 1, E_NIGHT = 2, E_DAY = 3, E_SPEAK = 4, E_CLAIM_ROLE = 5,
    E_CLAIM_CHECK = 6, E_ACCUSE = 7, E_VOUCH = 8, E_NOMINATE = 9, E_END_SPEECH = 10, E_NO_VOTE = 11,
    E_BALLOT = 12, E_TIE = 13, E_CRASH_BALLOT = 14, E_SPARED = 15, E_ELIMINATED = 16, E_MISS = 17,
    E_SHOT = 18, E_CHECK = 19, E_FOUL = 20, E_SILENCED = 21, E_REVEAL = 22, E_GAME_OVER = 23,
    E_TERMINATED = 24, E_VOTING = 25, E_CRASH = 26, E_VISIT = 27, E_BLOCKED = 28, E_HEAL = 29,
    E_HEAL_STATE = 30, E_DON_INTRODUCED = 31, E_ASK = 32, E_ANSWER = 33, E_NAME = 34, E_HUNT = 35,
    E_EXECUTOR = 36, E_TURN = 37, E_MORNING = 38, E_TALK = 39, E_COUNT = 40, E_PROPOSE = 41,
    E_GESTURE = 42, N_EVENTS = 43 };

/* Cause (mafia_env.engine.events) */
enum { C_VOTE = 0, C_NIGHT = 1, C_FOUL = 2, C_MAFIA = 3, C_MANIAC = 4, C_COMPANION = 5,
    C_HUNTED = 6, C_HUNTER = 7, C_FORFEIT = 8, C_REMOVED = 9 };

/* Role (mafia_env.engine.roles) */
enum { R_CIVILIAN = 0, R_SHERIFF = 1, R_DOCTOR = 2, R_PUTANA = 3, R_MAFIA = 4, R_DON = 5,
    R_MANIAC = 6, N_ROLES = 7 };

/* Team (mafia_env.engine.roles) */
enum { TEAM_TOWN = 0, TEAM_MAFIA = 1, TEAM_MANIAC = 2 };

/* Outcome (mafia_env.engine.events) */
enum { O_TOWN = 0, O_MAFIA = 1, O_MANIAC = 2, O_DRAW = 3 };

/* NoVote (mafia_env.engine.events) */
enum { NV_NO_NOMINEES = 0, NV_SINGLE_NOMINEE_DAY1 = 1 };

/* Spared (mafia_env.engine.events) */
enum { SP_NO_VOTES = 0, SP_TIE = 1, SP_CRASH_FAILED = 2, SP_NO_MAJORITY = 3 };

/* Answer (mafia_env.engine.events) */
enum { ANS_YES = 0, ANS_NO = 1, ANS_DONT_KNOW = 2 };

/* knob nominations: the index of its choice */
enum { NOM_SPEECH = 0, NOM_ROUND = 1, NOM_NONE = 2 };

/* knob nominee_ban: the index of its choice */
enum { BAN_DAY = 0, BAN_BALLOT = 1 };

/* knob silent_vote: the index of its choice */
enum { SILENT_LAST_NOMINEE = 0, SILENT_ABSTAIN = 1 };

/* knob single_nominee: the index of its choice */
enum { SINGLE_VOTE = 0, SINGLE_SKIP_DAY1 = 1, SINGLE_STRICT_MAJORITY = 2 };

/* knob tie: the index of its choice */
enum { TIE_REVOTE_THEN_CRASH = 0, TIE_REVOTE_THEN_ALL_LEAVE = 1, TIE_REVOTE_THEN_NONE = 2,
    TIE_NONE = 3, TIE_RANDOM = 4 };

/* knob zero_votes: the index of its choice */
enum { ZV_TIE = 0, ZV_SPARE = 1 };

/* knob reveal_on_death: the index of its choice */
enum { REVEAL_NONE = 0, REVEAL_ALL = 1, REVEAL_MANIAC = 2 };

/* knob night_order: the index of its choice */
enum { NS_PUTANA = 0, NS_MAFIA = 1, NS_DON = 2, NS_SHERIFF = 3, NS_DOCTOR = 4, NS_MANIAC = 5,
    NS_HUNT = 6 };

/* knob mafia_kill: the index of its choice */
enum { KILL_UNANIMOUS = 0, KILL_DON = 1, KILL_EXECUTOR = 2 };

/* knob mafia_split: the index of its choice */
enum { SPLIT_MISS = 0, SPLIT_FORFEIT = 1 };

/* knob self_shot: the index of its choice */
enum { SELF_ALWAYS = 0, SELF_LONE = 1, SELF_NEVER = 2 };

/* knob heal_against: the index of its choice */
enum { HA_MAFIA = 0, HA_ALL = 1 };

/* knob heal_spent: the index of its choice */
enum { HS_ALWAYS = 0, HS_ON_SHOT = 1 };

/* knob night_announce: the index of its choice */
enum { ANN_PLAIN = 0, ANN_TWO_BY_KILLER = 1, ANN_BY_KILLER = 2 };

/* knob mafia_win: the index of its choice */
enum { WIN_PARITY = 0, WIN_MAJORITY = 1 };

/* knob mafia_win_maniac: the index of its choice */
enum { WM_DEAD = 0, WM_COUNTED = 1 };

/* knob vote_count: the index of its choice */
enum { VC_HIDDEN = 0, VC_OPEN = 1 };

/* knob hunted_reveal: the index of its choice */
enum { HR_NONE = 0, HR_MAFIA = 1, HR_ALL = 2 };

/* knob mafia_no_number: the index of its choice */
enum { NN_MISS = 0, NN_FORFEIT = 1 };

/* knob shots_judged: the index of its choice */
enum { SJ_FIRED = 0, SJ_MORNING = 1 };

/* knob gestures: the index of its choice */
enum { G_NONE = 0, G_NAMED = 1, G_ALL = 2 };

/* knob nominee_votes: the index of its choice */
enum { NVOTE_LAST_NOMINEE = 0, NVOTE_NONE = 1 };

/* the observation pieces, in the order of the config's offsets (schema.PIECES) */
enum { P_SEAT = 0, P_ROLE = 1, P_KNOWN_ROLES = 2, P_CHECKS = 3, P_MY_TURN = 4, P_MY_NIGHT = 5,
    P_TEAM_SHOTS = 6, P_TEAM_EXECUTORS = 7, P_BLOCKED = 8, P_LAST_HEAL = 9, P_SELF_HEALS = 10,
    P_PHASE = 11, P_DAY = 12, P_SPEAKER = 13, P_ACTS_LEFT = 14, P_ALIVE = 15, P_ELIMINATED = 16,
    P_FOULS = 17, P_REVEALED = 18, P_NOMINEES = 19, P_CANDIDATES = 20, P_VOTES = 21,
    P_VOTES_BEFORE = 22, P_CRASH = 23, P_NOMINATIONS = 24, P_CLAIMED_ROLE = 25,
    P_CLAIMED_CHECK = 26, P_ACCUSED = 27, P_VOUCHED = 28, P_QUESTIONS = 29, P_ANSWERS = 30,
    P_NAMED = 31, P_COUNTING = 32, P_TEAM_PLAN = 33, P_GESTURES = 34, N_PIECES = 35 };

/* the knobs the core reads as one int each: X(name) for each */
#define CORE_KNOBS(X) X(zero_night) X(zero_night_don) X(speech_acts) X(claims) X(nominations) \
    X(self_nomination) X(self_vote) X(nominees_vote) X(nominee_ban) X(silent_vote) \
    X(single_nominee) X(tie) X(tie_speeches) X(zero_votes) X(last_word_vote) X(last_word_night) \
    X(reveal_on_death) X(mafia_target_team) X(don_check) X(sheriff_check) X(check_skip) \
    X(fouls_mute) X(fouls_remove) X(mafia_kill) X(mafia_split) X(mafia_pass) X(self_shot) \
    X(mafia_see_shots) X(don_known) X(heal_repeat) X(heal_self) X(heal_skip) X(heal_against) \
    X(heal_spent) X(night_announce) X(putana_self) X(companion_reason) X(companion_heal) \
    X(questions) X(naming_threshold) X(nominee_speeches) X(hunt) X(hunt_status) X(mafia_win) \
    X(hunt_ratio) X(mafia_win_maniac) X(vote_count) X(fouls_take_last_word) X(hunted_reveal) \
    X(heal_told) X(mafia_no_number) X(zero_night_meeting) X(shots_judged) X(discussion) \
    X(gestures) X(nominee_votes)

/* tables, each indexed by an enum's value */
static const int ROLE_TEAM[N_ROLES] = { 0, 0, 0, 0, 1, 1, 2 };
static const int IS_SPEECH[N_TURNS] = { 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
    0 };
static const int IS_PUBLIC[N_TURNS] = { 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1,
    1 };
static const int BLOCKABLE[N_TURNS] = { 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    0 };
static const int SPEECH_EVENT[N_ACTS] = { -1, 9, -1, -1, 5, 6, 7, 8, -1, -1, -1, -1, -1, -1, -1 };

/* every constant and table above by name: the module's CONSTANTS, TABLES */
static const struct {
    const char *name;
    int value;
} CCORE_CONSTANTS[] = {
    {"MAXN", MAXN},
    {"PUBLIC", PUBLIC},
    {"T_SPEECH", T_SPEECH},
    {"T_LAST_WORD", T_LAST_WORD},
    {"T_TIE_SPEECH", T_TIE_SPEECH},
    {"T_VOTE", T_VOTE},
    {"T_CRASH_VOTE", T_CRASH_VOTE},
    {"T_MAFIA_KILL", T_MAFIA_KILL},
    {"T_DON_CHECK", T_DON_CHECK},
    {"T_SHERIFF_CHECK", T_SHERIFF_CHECK},
    {"T_PUTANA", T_PUTANA},
    {"T_DOCTOR", T_DOCTOR},
    {"T_MANIAC", T_MANIAC},
    {"T_EXECUTOR", T_EXECUTOR},
    {"T_HUNT", T_HUNT},
    {"T_NAMING", T_NAMING},
    {"T_MONOLOGUE", T_MONOLOGUE},
    {"T_ANSWER", T_ANSWER},
    {"T_OPEN_VOTE", T_OPEN_VOTE},
    {"T_MEETING", T_MEETING},
    {"T_DISCUSSION", T_DISCUSSION},
    {"T_GESTURE", T_GESTURE},
    {"N_TURNS", N_TURNS},
    {"A_PASS", A_PASS},
    {"A_NOMINATE", A_NOMINATE},
    {"A_VOTE", A_VOTE},
    {"A_NIGHT", A_NIGHT},
    {"A_CLAIM_ROLE", A_CLAIM_ROLE},
    {"A_CLAIM_CHECK", A_CLAIM_CHECK},
    {"A_ACCUSE", A_ACCUSE},
    {"A_VOUCH", A_VOUCH},
    {"A_VOTE_YES", A_VOTE_YES},
    {"A_VOTE_NO", A_VOTE_NO},
    {"A_ASK", A_ASK},
    {"A_ANSWER", A_ANSWER},
    {"A_REVEAL_DON", A_REVEAL_DON},
    {"A_EXECUTOR", A_EXECUTOR},
    {"A_HUNT", A_HUNT},
    {"N_ACTS", N_ACTS},
    {"S_DAWN", S_DAWN},
    {"S_SPEECHES", S_SPEECHES},
    {"S_NAMING", S_NAMING},
    {"S_MONOLOGUES", S_MONOLOGUES},
    {"S_VOTE", S_VOTE},
    {"S_TIE_SPEECHES", S_TIE_SPEECHES},
    {"S_CRASH", S_CRASH},
    {"S_LAST_WORDS", S_LAST_WORDS},
    {"S_NIGHT", S_NIGHT},
    {"S_OVER", S_OVER},
    {"S_ZERO_NIGHT", S_ZERO_NIGHT},
    {"S_COUNT", S_COUNT},
    {"S_DISCUSSION", S_DISCUSSION},
    {"CALL_FOUL", CALL_FOUL},
    {"CALL_TERMINATE", CALL_TERMINATE},
    {"CALL_REMOVE", CALL_REMOVE},
    {"E_ROLE", E_ROLE},
    {"E_TEAMMATE", E_TEAMMATE},
    {"E_NIGHT", E_NIGHT},
    {"E_DAY", E_DAY},
    {"E_SPEAK", E_SPEAK},
    {"E_CLAIM_ROLE", E_CLAIM_ROLE},
    {"E_CLAIM_CHECK", E_CLAIM_CHECK},
    {"E_ACCUSE", E_ACCUSE},
    {"E_VOUCH", E_VOUCH},
    {"E_NOMINATE", E_NOMINATE},
    {"E_END_SPEECH", E_END_SPEECH},
    {"E_NO_VOTE", E_NO_VOTE},
    {"E_BALLOT", E_BALLOT},
    {"E_TIE", E_TIE},
    {"E_CRASH_BALLOT", E_CRASH_BALLOT},
    {"E_SPARED", E_SPARED},
    {"E_ELIMINATED", E_ELIMINATED},
    {"E_MISS", E_MISS},
    {"E_SHOT", E_SHOT},
    {"E_CHECK", E_CHECK},
    {"E_FOUL", E_FOUL},
    {"E_SILENCED", E_SILENCED},
    {"E_REVEAL", E_REVEAL},
    {"E_GAME_OVER", E_GAME_OVER},
    {"E_TERMINATED", E_TERMINATED},
    {"E_VOTING", E_VOTING},
    {"E_CRASH", E_CRASH},
    {"E_VISIT", E_VISIT},
    {"E_BLOCKED", E_BLOCKED},
    {"E_HEAL", E_HEAL},
    {"E_HEAL_STATE", E_HEAL_STATE},
    {"E_DON_INTRODUCED", E_DON_INTRODUCED},
    {"E_ASK", E_ASK},
    {"E_ANSWER", E_ANSWER},
    {"E_NAME", E_NAME},
    {"E_HUNT", E_HUNT},
    {"E_EXECUTOR", E_EXECUTOR},
    {"E_TURN", E_TURN},
    {"E_MORNING", E_MORNING},
    {"E_TALK", E_TALK},
    {"E_COUNT", E_COUNT},
    {"E_PROPOSE", E_PROPOSE},
    {"E_GESTURE", E_GESTURE},
    {"N_EVENTS", N_EVENTS},
    {"C_VOTE", C_VOTE},
    {"C_NIGHT", C_NIGHT},
    {"C_FOUL", C_FOUL},
    {"C_MAFIA", C_MAFIA},
    {"C_MANIAC", C_MANIAC},
    {"C_COMPANION", C_COMPANION},
    {"C_HUNTED", C_HUNTED},
    {"C_HUNTER", C_HUNTER},
    {"C_FORFEIT", C_FORFEIT},
    {"C_REMOVED", C_REMOVED},
    {"R_CIVILIAN", R_CIVILIAN},
    {"R_SHERIFF", R_SHERIFF},
    {"R_DOCTOR", R_DOCTOR},
    {"R_PUTANA", R_PUTANA},
    {"R_MAFIA", R_MAFIA},
    {"R_DON", R_DON},
    {"R_MANIAC", R_MANIAC},
    {"N_ROLES", N_ROLES},
    {"TEAM_TOWN", TEAM_TOWN},
    {"TEAM_MAFIA", TEAM_MAFIA},
    {"TEAM_MANIAC", TEAM_MANIAC},
    {"O_TOWN", O_TOWN},
    {"O_MAFIA", O_MAFIA},
    {"O_MANIAC", O_MANIAC},
    {"O_DRAW", O_DRAW},
    {"NV_NO_NOMINEES", NV_NO_NOMINEES},
    {"NV_SINGLE_NOMINEE_DAY1", NV_SINGLE_NOMINEE_DAY1},
    {"SP_NO_VOTES", SP_NO_VOTES},
    {"SP_TIE", SP_TIE},
    {"SP_CRASH_FAILED", SP_CRASH_FAILED},
    {"SP_NO_MAJORITY", SP_NO_MAJORITY},
    {"ANS_YES", ANS_YES},
    {"ANS_NO", ANS_NO},
    {"ANS_DONT_KNOW", ANS_DONT_KNOW},
    {"NOM_SPEECH", NOM_SPEECH},
    {"NOM_ROUND", NOM_ROUND},
    {"NOM_NONE", NOM_NONE},
    {"BAN_DAY", BAN_DAY},
    {"BAN_BALLOT", BAN_BALLOT},
    {"SILENT_LAST_NOMINEE", SILENT_LAST_NOMINEE},
    {"SILENT_ABSTAIN", SILENT_ABSTAIN},
    {"SINGLE_VOTE", SINGLE_VOTE},
    {"SINGLE_SKIP_DAY1", SINGLE_SKIP_DAY1},
    {"SINGLE_STRICT_MAJORITY", SINGLE_STRICT_MAJORITY},
    {"TIE_REVOTE_THEN_CRASH", TIE_REVOTE_THEN_CRASH},
    {"TIE_REVOTE_THEN_ALL_LEAVE", TIE_REVOTE_THEN_ALL_LEAVE},
    {"TIE_REVOTE_THEN_NONE", TIE_REVOTE_THEN_NONE},
    {"TIE_NONE", TIE_NONE},
    {"TIE_RANDOM", TIE_RANDOM},
    {"ZV_TIE", ZV_TIE},
    {"ZV_SPARE", ZV_SPARE},
    {"REVEAL_NONE", REVEAL_NONE},
    {"REVEAL_ALL", REVEAL_ALL},
    {"REVEAL_MANIAC", REVEAL_MANIAC},
    {"NS_PUTANA", NS_PUTANA},
    {"NS_MAFIA", NS_MAFIA},
    {"NS_DON", NS_DON},
    {"NS_SHERIFF", NS_SHERIFF},
    {"NS_DOCTOR", NS_DOCTOR},
    {"NS_MANIAC", NS_MANIAC},
    {"NS_HUNT", NS_HUNT},
    {"KILL_UNANIMOUS", KILL_UNANIMOUS},
    {"KILL_DON", KILL_DON},
    {"KILL_EXECUTOR", KILL_EXECUTOR},
    {"SPLIT_MISS", SPLIT_MISS},
    {"SPLIT_FORFEIT", SPLIT_FORFEIT},
    {"SELF_ALWAYS", SELF_ALWAYS},
    {"SELF_LONE", SELF_LONE},
    {"SELF_NEVER", SELF_NEVER},
    {"HA_MAFIA", HA_MAFIA},
    {"HA_ALL", HA_ALL},
    {"HS_ALWAYS", HS_ALWAYS},
    {"HS_ON_SHOT", HS_ON_SHOT},
    {"ANN_PLAIN", ANN_PLAIN},
    {"ANN_TWO_BY_KILLER", ANN_TWO_BY_KILLER},
    {"ANN_BY_KILLER", ANN_BY_KILLER},
    {"WIN_PARITY", WIN_PARITY},
    {"WIN_MAJORITY", WIN_MAJORITY},
    {"WM_DEAD", WM_DEAD},
    {"WM_COUNTED", WM_COUNTED},
    {"VC_HIDDEN", VC_HIDDEN},
    {"VC_OPEN", VC_OPEN},
    {"HR_NONE", HR_NONE},
    {"HR_MAFIA", HR_MAFIA},
    {"HR_ALL", HR_ALL},
    {"NN_MISS", NN_MISS},
    {"NN_FORFEIT", NN_FORFEIT},
    {"SJ_FIRED", SJ_FIRED},
    {"SJ_MORNING", SJ_MORNING},
    {"G_NONE", G_NONE},
    {"G_NAMED", G_NAMED},
    {"G_ALL", G_ALL},
    {"NVOTE_LAST_NOMINEE", NVOTE_LAST_NOMINEE},
    {"NVOTE_NONE", NVOTE_NONE},
    {"P_SEAT", P_SEAT},
    {"P_ROLE", P_ROLE},
    {"P_KNOWN_ROLES", P_KNOWN_ROLES},
    {"P_CHECKS", P_CHECKS},
    {"P_MY_TURN", P_MY_TURN},
    {"P_MY_NIGHT", P_MY_NIGHT},
    {"P_TEAM_SHOTS", P_TEAM_SHOTS},
    {"P_TEAM_EXECUTORS", P_TEAM_EXECUTORS},
    {"P_BLOCKED", P_BLOCKED},
    {"P_LAST_HEAL", P_LAST_HEAL},
    {"P_SELF_HEALS", P_SELF_HEALS},
    {"P_PHASE", P_PHASE},
    {"P_DAY", P_DAY},
    {"P_SPEAKER", P_SPEAKER},
    {"P_ACTS_LEFT", P_ACTS_LEFT},
    {"P_ALIVE", P_ALIVE},
    {"P_ELIMINATED", P_ELIMINATED},
    {"P_FOULS", P_FOULS},
    {"P_REVEALED", P_REVEALED},
    {"P_NOMINEES", P_NOMINEES},
    {"P_CANDIDATES", P_CANDIDATES},
    {"P_VOTES", P_VOTES},
    {"P_VOTES_BEFORE", P_VOTES_BEFORE},
    {"P_CRASH", P_CRASH},
    {"P_NOMINATIONS", P_NOMINATIONS},
    {"P_CLAIMED_ROLE", P_CLAIMED_ROLE},
    {"P_CLAIMED_CHECK", P_CLAIMED_CHECK},
    {"P_ACCUSED", P_ACCUSED},
    {"P_VOUCHED", P_VOUCHED},
    {"P_QUESTIONS", P_QUESTIONS},
    {"P_ANSWERS", P_ANSWERS},
    {"P_NAMED", P_NAMED},
    {"P_COUNTING", P_COUNTING},
    {"P_TEAM_PLAN", P_TEAM_PLAN},
    {"P_GESTURES", P_GESTURES},
    {"N_PIECES", N_PIECES},
    {0, 0}};
static const struct {
    const char *name;
    const int *values;
    int len;
} CCORE_TABLES[] = {
    {"ROLE_TEAM", ROLE_TEAM, N_ROLES},
    {"IS_SPEECH", IS_SPEECH, N_TURNS},
    {"IS_PUBLIC", IS_PUBLIC, N_TURNS},
    {"BLOCKABLE", BLOCKABLE, N_TURNS},
    {"SPEECH_EVENT", SPEECH_EVENT, N_ACTS},
    {0, 0, 0}};

#endif
