export const meta = { name: 'sizes', description: 'Measure the bundle sizes' }
const SIZE = { type: 'object', properties: { kb: { type: 'number' } }, required: ['kb'] }
const r = await agent('Build the bundle and measure its size in kilobytes.', { schema: SIZE })
return { kb: r.kb }
