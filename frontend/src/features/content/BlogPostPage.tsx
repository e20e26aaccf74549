import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSession } from '../../lib/auth/hooks';
import { SIGN_UP_PATH } from '../../lib/auth/paths';
import { PostBody } from './components/PostBody';
import { PostDate } from './components/PostDate';
import { PostPicture } from './components/PostPicture';
import { findPost } from './posts';
import './content.css';

export default function BlogPostPage() {
  const { slug } = useParams();
  const post = findPost(slug);
  const signedIn = useSession() !== null;

  useEffect(() => {
    if (!post) return;
    const previous = document.title;
    document.title = `${post.title} · FrameText`;
    return () => {
      document.title = previous;
    };
  }, [post]);

  if (!post) {
    return (
      <div className="content-page">
        <h1>Post not found</h1>
        <p>There is no post at this address. It may have been renamed, or the link may be mistyped.</p>
        <p>
          <Link to="/blog">Back to the blog</Link>
        </p>
      </div>
    );
  }

  return (
    <article className="content-page">
      <p className="content-back">
        <Link to="/blog">← All posts</Link>
      </p>
      <header className="content-header">
        <h1>{post.title}</h1>
        <p className="content-lead">{post.subtitle}</p>
        <p className="content-muted">
          <PostDate date={post.date} />
        </p>
      </header>
      <PostPicture kind={post.picture} alt={post.pictureAlt} className="post-hero" />
      <PostBody blocks={post.body} />
      <footer className="post-footer">
        <p>
          {signedIn ? (
            <>
              Ready to try it on your own media? <Link to="/upload">Start a new upload</Link>.
            </>
          ) : (
            <>
              Want to try it on your own media? <Link to="/demo">Open the demo</Link> or <Link to={SIGN_UP_PATH}>create a free account</Link>.
            </>
          )}
        </p>
      </footer>
    </article>
  );
}
