export const RU = {};
