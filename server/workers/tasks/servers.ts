// Worker tasks of the servers area (owned by that area).
export {};
