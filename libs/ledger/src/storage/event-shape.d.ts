/** Why `raw` is not a CCCSEventV1 envelope, or undefined when it is one (event-shape.js). */
export declare function eventShapeProblem(raw: unknown): string | undefined;
