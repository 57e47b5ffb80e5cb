/**
 * What the rules of §2.10 share: fixtures, case tables and the makers of rule families.
 */


export const commentMessage = () => ({
  type: 'text', text: 'a comment',
  post: { id: 'post-1', url: 'https://social.example/post/1', preview_url: 'https://files.example/p.png', preview_permalink: 'https://files.example/pp.png', username: 'author', caption: 'A post' },
});
