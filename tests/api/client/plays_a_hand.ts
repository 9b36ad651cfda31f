// A client's program, written against the types openapi-typescript generates from the served
// document (dealer.d.ts) and checked with `tsc --strict`: it signs in, opens a table, seats three
// players, deals a hand that ends when seats 2 and 3 drop, then reads the hand, its replay,
// every seat's statement and seat 1's printed statement.
import type { components, operations } from "./dealer";

type Schemas = components["schemas"];
type Json<Op extends keyof operations, Status extends keyof operations[Op]["responses"]> =
  operations[Op]["responses"][Status] extends { content: { "application/json": infer T } }
    ? T
    : never;
type HandStatus = "playing" | "settled" | "void";
type SeatStatus = "in" | "dropped" | "fouled";

async function call<T>(base: string, path: string, token: string | null, body?: object): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(base + path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) {
    const refused = (await answer.json()) as Schemas["Refused"];
    throw new Error(`${refused.error.code}: ${refused.error.message}`);
  }
  return (await answer.json()) as T;
}

export async function plays(base: string, name: string, pin: string): Promise<object> {
  const signIn: Schemas["SignIn"] = { name, pin };
  const signed = await call<Json<"sign_in", 200>>(base, "/api/v1/session", null, signIn);
  const token = signed.token;
  const newTable: Schemas["NewTable"] = { name: "Typed", profile: "classic" };
  const table = await call<Json<"create_table", 201>>(base, "/api/v1/tables", token, newTable);
  for (const seat of [1, 2, 3]) {
    const seated: Schemas["NewSeat"] = { seat, player: `P${seat}`, buy_in: 50 };
    await call<Json<"seat_player", 201>>(base, `/api/v1/tables/${table.id}/seats`, token, seated);
  }
  const hand = await call<Json<"start_hand", 201>>(base, `/api/v1/tables/${table.id}/hands`, token, {});
  const allowed: Schemas["HandSeatView"]["allowed"] = hand.seats["2"]?.allowed ?? [];
  const mayDrop: boolean = allowed.includes("drop");
  const rules: Schemas["Posted"]["rule"][] = [];
  for (const seat of [2, 3]) {
    const drop: Schemas["DropEvent"] = { type: "drop", seat };
    const recorded = await call<Json<"record_event", 201>>(base, `/api/v1/hands/${hand.id}/events`, token, drop);
    rules.push(...recorded.payments.map((p) => p.rule));
  }
  const read = await call<Json<"read_hand", 200>>(base, `/api/v1/hands/${hand.id}`, token);
  const status: HandStatus = read.status;
  const replay = await call<Json<"replay_hand", 200>>(base, `/api/v1/hands/${hand.id}/replay?at=2`, token);
  const replayed: HandStatus = replay.status;
  const second: SeatStatus | undefined = replay.seats["2"]?.status;
  const nets: Record<string, number> = {};
  for (const seat of [1, 2, 3]) {
    const statement = await call<Json<"read_seat_statement", 200>>(
      base, `/api/v1/hands/${hand.id}/seats/${seat}/statement`, token);
    const codes: Schemas["RuleNamed"]["code"][] = statement.lines.map((line) => line.rule.code);
    nets[String(seat)] = codes.length > 0 ? statement.net : 0;
  }
  const pdf = await fetch(`${base}/reports/hands/${hand.id}/seats/1/statement.pdf`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const printed: ArrayBuffer = await pdf.arrayBuffer();
  const verified = await call<Json<"verify_ledger", 200>>(base, "/api/v1/ledger/verify", token);
  const checks: Schemas["ProblemView"]["check"][] = verified.problems.map((p) => p.check);
  return { status, replayed, second, mayDrop, rules, nets, pdf: printed.byteLength, checks };
}
