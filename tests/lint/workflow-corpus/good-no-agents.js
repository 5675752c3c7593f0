export const meta = { name: 'plan', description: 'Turn the arguments into a plan (no agents)' }
log(`planning ${args.items.length} items`)
const plan = args.items.map((item, i) => ({ order: i + 1, item }))
return { plan }
