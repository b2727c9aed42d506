/** A ladder's game as players know it, and the language that name is written in (BCP 47). */
export interface LadderName {
  readonly name: string;
  readonly lang: string;
}

/**
 * The built-in ladders' games named as their seed pages (the original rule pages) write them:
 * QQ's pages in simplified characters, i.Game's and the copy of Xinbo's in traditional.
 */
const NAMES: Readonly<Record<string, LadderName>> = {
  'qq-gomoku': { name: 'QQ游戏五子棋', lang: 'zh-Hans' },
  'igame-gomoku': { name: 'i.Game 五子棋排名室', lang: 'zh-Hant' },
  'igame-gomoku-casual': { name: 'i.Game 五子棋休閒室', lang: 'zh-Hant' },
  'qq-xiangqi': { name: 'QQ中国象棋(新版)', lang: 'zh-Hans' },
  'xinbo-go': { name: '新博少兒對弈平臺 圍棋', lang: 'zh-Hant' },
  'qq-blokus': { name: '方格游戏', lang: 'zh-Hans' },
  'qq-fifty-k': { name: 'QQ游戏五十K', lang: 'zh-Hans' },
};

/** A configured ladder the seeds do not name goes by its id. */
export const ladderName = (id: string): LadderName => NAMES[id] ?? { name: id, lang: 'en' };
