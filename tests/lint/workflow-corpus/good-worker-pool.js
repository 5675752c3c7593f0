export const meta = { name: 'translate', description: 'Translate the docs with a pool of two workers' };

const queue = [...args.pages];
const STATUS = {
  type: 'object',
  properties: { status: { enum: ['OK', 'FAILED'] }, words: { type: 'integer' } },
  required: ['status'],
};
const finished = [];

async function worker(id) {
  while (queue.length > 0) {
    const page = queue.shift();
    const r = await agent(
      'Translate ' + page + ' into German. Write the translation to .translate-reports/' + page + '.md.',
      { label: 'worker-' + id, schema: STATUS },
    );
    finished.push({ page: page, status: r ? r.status : 'FAILED' });
  }
}

await parallel(Array.from({ length: 2 }, (_, i) => () => worker(i)));
return { translated: finished.filter((f) => f.status === 'OK').length, pages: finished };
