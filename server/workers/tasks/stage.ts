// Worker tasks of the stage area (owned by that area).
export {};
