// Wire is the JSON form of an SDK type: the Gemini SDK declares schema
// types as a TypeScript enum (Type.STRING), whose JSON is its value
// ("STRING"); everything else is as declared.
import type { Type } from "@google/genai";

export type Wire<T> = T extends Type
  ? `${T}`
  : T extends (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;
