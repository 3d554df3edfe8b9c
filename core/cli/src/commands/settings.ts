/** `qk settings` and `qk settings set NAME VALUE`. */
import type { Command } from 'commander';
import { action } from '../context.js';
import { formatSetting, formatSettings } from '../format/service.js';
import type { CliIo } from '../io.js';
import { parseNumber } from '../parse-values.js';

/** Registers the settings commands. */
export function registerSettingsCommands(program: Command, io: CliIo): void {
  const settings = program
    .command('settings')
    .description('every setting (MachineQuota, RemoveDuplicateSize, …); `settings set NAME VALUE` changes one')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.settingsList({}), formatSettings);
      }),
    );

  settings
    .command('set <name> <value>')
    .description(
      'change a setting; one that needs a restart waits as pending. VALUE "none" makes a setting that may be absent (XactDelayReceiveNack) absent again',
    )
    .action(
      action(io, async (ctx, [name, value]) => {
        const text = (value as string).trim().toLowerCase();
        const absent = text === 'none' || text === 'absent' || text === 'default';
        const input = { name: name as string, value: absent ? null : parseNumber(value as string, 'VALUE') };
        const client = await ctx.client();
        ctx.print(await client.settingsSet(input), formatSetting);
      }),
    );
}
